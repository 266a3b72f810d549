#!/usr/bin/env python3
"""Fails when a shipped module's privacy manifest and its sources disagree.

Every module an app can link (Packages/<Name>/Sources/<Name>, Sources/<Name>, Tools/<Tool>/Sources/<Name>;
not Packages/TestSupport, which is never a product) is grepped, comments left out, for the symbols of
Apple's required-reason APIs ("Describing use of required reason API"). A module that uses one must ship
Resources/PrivacyInfo.xcprivacy, declared as a resource of its target in the root manifest, whose
NSPrivacyAccessedAPITypes declares that category with known reasons; a category declared that nothing in
the module uses fails too. Each manifest must be a well-formed plist with known keys, data types, purposes
and reason codes, and NSPrivacyTracking false with no tracking domain. Prints each use found
(file:line -> category) and what is wrong; exits 1 on any problem.
"""
import json
import pathlib
import plistlib
import re
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
MANIFEST = "Resources/PrivacyInfo.xcprivacy"

# Apple's required-reason APIs: category -> (the symbols that use it, the reason codes Apple defines).
CATEGORIES = {
    "NSPrivacyAccessedAPICategoryFileTimestamp": (
        [
            "creationDate", "modificationDate", "fileModificationDate", "contentModificationDateKey",
            "creationDateKey", "getattrlist", "getattrlistbulk", "fgetattrlist", "getattrlistat", "stat", "fstat",
            "fstatat", "lstat", "NSFileCreationDate", "NSFileModificationDate", "NSURLContentModificationDateKey",
            "NSURLCreationDateKey",
        ],
        {"DDA9.1", "C617.1", "3B52.1", "0A2A.1"},
    ),
    "NSPrivacyAccessedAPICategorySystemBootTime": (
        ["systemUptime", "mach_absolute_time"],
        {"35F9.1", "8FFB.1", "3D61.1"},
    ),
    "NSPrivacyAccessedAPICategoryDiskSpace": (
        [
            "volumeAvailableCapacityKey", "volumeAvailableCapacityForImportantUsageKey",
            "volumeAvailableCapacityForOpportunisticUsageKey", "volumeTotalCapacityKey", "systemFreeSize",
            "systemSize", "statfs", "statvfs", "fstatfs", "fstatvfs", "NSFileSystemFreeSize", "NSFileSystemSize",
            "NSURLVolumeAvailableCapacityKey", "NSURLVolumeAvailableCapacityForImportantUsageKey",
            "NSURLVolumeAvailableCapacityForOpportunisticUsageKey", "NSURLVolumeTotalCapacityKey",
        ],
        {"85F4.1", "E174.1", "7D9E.1", "B728.1"},
    ),
    "NSPrivacyAccessedAPICategoryActiveKeyboards": (["activeInputModes"], {"3EC4.1", "54BD.1"}),
    "NSPrivacyAccessedAPICategoryUserDefaults": (
        ["UserDefaults", "NSUserDefaults"],
        {"CA92.1", "1C8F.1", "C56D.1", "AC6B.1"},
    ),
}
DATA_TYPES = {
    "NSPrivacyCollectedDataType" + name
    for name in (
        "Name EmailAddress PhoneNumber PhysicalAddress OtherUserContactInfo Health Fitness PaymentInfo CreditInfo "
        "OtherFinancialInfo PreciseLocation CoarseLocation SensitiveInfo Contacts EmailsOrTextMessages "
        "PhotosorVideos AudioData GameplayContent CustomerSupport OtherUserContent BrowsingHistory SearchHistory "
        "UserID DeviceID PurchaseHistory ProductInteraction AdvertisingData OtherUsageData CrashData "
        "PerformanceData OtherDiagnosticData EnvironmentScanning Hands Head OtherDataTypes"
    ).split()
}
PURPOSES = {
    "NSPrivacyCollectedDataTypePurpose" + name
    for name in "ThirdPartyAdvertising DeveloperAdvertising Analytics ProductPersonalization AppFunctionality Other".split()
}
TOP_KEYS = {"NSPrivacyTracking", "NSPrivacyTrackingDomains", "NSPrivacyCollectedDataTypes", "NSPrivacyAccessedAPITypes"}
DATA_KEYS = {
    "NSPrivacyCollectedDataType", "NSPrivacyCollectedDataTypeLinked", "NSPrivacyCollectedDataTypeTracking",
    "NSPrivacyCollectedDataTypePurposes",
}
API_KEYS = {"NSPrivacyAccessedAPIType", "NSPrivacyAccessedAPITypeReasons"}
PATTERNS = {
    category: re.compile(r"\b(" + "|".join(map(re.escape, symbols)) + r")\b")
    for category, (symbols, _) in CATEGORIES.items()
}


def modules():
    """The shipped modules' source folders, by module name."""
    folders = [*ROOT.glob("Packages/*/Sources/*"), *ROOT.glob("Sources/*"), *ROOT.glob("Tools/*/Sources/*")]
    return {
        folder.name: folder
        for folder in sorted(folders)
        if folder.is_dir() and "TestSupport" not in folder.parts and "Benchmarks" not in folder.parts
    }


def code_lines(path):
    """Each line of a Swift file with its comments removed, numbered from 1."""
    in_block = False
    for number, line in enumerate(path.read_text().splitlines(), 1):
        if in_block:
            end = line.find("*/")
            if end < 0:
                continue
            line, in_block = line[end + 2 :], False
        line = re.sub(r"/\*.*?\*/", "", line)
        if "/*" in line:
            line, in_block = line[: line.index("/*")], True
        yield number, line.split("//", 1)[0]


def uses(folder):
    """category -> ["file:line: the line"] of every use of a required-reason API in the folder."""
    found = {}
    for path in sorted(folder.rglob("*.swift")):
        for number, line in code_lines(path):
            for category, pattern in PATTERNS.items():
                if pattern.search(line):
                    where = f"{path.relative_to(ROOT)}:{number}: {line.strip()}"
                    found.setdefault(category, []).append(where)
    return found


def check_manifest(path, problems):
    """The categories the manifest declares, after checking its shape; problems are appended."""
    try:
        with open(path, "rb") as file:
            manifest = plistlib.load(file)
    except Exception as error:  # plistlib raises several kinds on a malformed file
        problems.append(f"{path.relative_to(ROOT)}: not a well-formed plist: {error}")
        return set()
    where = path.relative_to(ROOT)
    if not isinstance(manifest, dict):
        problems.append(f"{where}: the top level is not a dictionary")
        return set()
    for key in sorted(set(manifest) - TOP_KEYS):
        problems.append(f"{where}: unknown key {key}")
    for key in sorted(TOP_KEYS - set(manifest)):
        problems.append(f"{where}: missing key {key}")
    if manifest.get("NSPrivacyTracking") is not False:
        problems.append(f"{where}: NSPrivacyTracking must be false: the SDK does not track")
    if manifest.get("NSPrivacyTrackingDomains") != []:
        problems.append(f"{where}: NSPrivacyTrackingDomains must be empty")
    for entry in manifest.get("NSPrivacyCollectedDataTypes", []):
        kind = entry.get("NSPrivacyCollectedDataType")
        if set(entry) != DATA_KEYS:
            problems.append(f"{where}: data type {kind} has keys {sorted(entry)}, expected {sorted(DATA_KEYS)}")
        if kind not in DATA_TYPES:
            problems.append(f"{where}: unknown data type {kind}")
        if entry.get("NSPrivacyCollectedDataTypeTracking") is not False:
            problems.append(f"{where}: data type {kind} must not be used for tracking")
        if not isinstance(entry.get("NSPrivacyCollectedDataTypeLinked"), bool):
            problems.append(f"{where}: data type {kind} must say whether it is linked")
        purposes = entry.get("NSPrivacyCollectedDataTypePurposes") or []
        if not purposes or set(purposes) - PURPOSES:
            problems.append(f"{where}: data type {kind} has unknown or no purposes {purposes}")
    declared = set()
    for entry in manifest.get("NSPrivacyAccessedAPITypes", []):
        category = entry.get("NSPrivacyAccessedAPIType")
        if set(entry) != API_KEYS:
            problems.append(f"{where}: {category} has keys {sorted(entry)}, expected {sorted(API_KEYS)}")
        if category not in CATEGORIES:
            problems.append(f"{where}: unknown API category {category}")
            continue
        if category in declared:
            problems.append(f"{where}: {category} is declared twice")
        declared.add(category)
        reasons = entry.get("NSPrivacyAccessedAPITypeReasons") or []
        if not reasons:
            problems.append(f"{where}: {category} gives no reason")
        for reason in reasons:
            if reason not in CATEGORIES[category][1]:
                problems.append(f"{where}: {reason} is not a reason of {category}")
    return declared


def declared_resources():
    """Module name -> the resource paths its target declares in the root manifest."""
    out = subprocess.run(
        ["swift", "package", "--package-path", str(ROOT), "dump-package"], check=True, capture_output=True, text=True
    )
    return {
        target["name"]: {resource["path"] for resource in target.get("resources", [])}
        for target in json.loads(out.stdout)["targets"]
    }


def main():
    problems = []
    resources = declared_resources()
    for name, folder in modules().items():
        found = uses(folder)
        for category, places in sorted(found.items()):
            for place in places:
                print(f"{name}: {place} -> {category}")
        manifest = folder / MANIFEST
        if not manifest.exists():
            if found:
                problems.append(f"{name}: uses {sorted(found)} but has no {MANIFEST}")
            continue
        if MANIFEST not in resources.get(name, set()):
            problems.append(f"{name}: {MANIFEST} is not a resource of the target in the root manifest")
        declared = check_manifest(manifest, problems)
        for category in sorted(set(found) - declared):
            problems.append(f"{name}: uses {category} ({found[category][0]}) but its manifest does not declare it")
        for category in sorted(declared - set(found)):
            problems.append(f"{name}: declares {category} but no source of the module uses it")
        print(f"checked {name}: {MANIFEST} declares {sorted(declared) or 'no API'}")
    if problems:
        print("Privacy manifests disagree with the sources:\n- " + "\n- ".join(problems))
        return 1
    print("The privacy manifests agree with the sources.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
