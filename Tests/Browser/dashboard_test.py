"""The emulator's dashboard in a real browser (headless Chromium through Debian's chromedriver), with a
real SDK client (config-demo in --base-url mode, which prints each value its `values(for:default:)` stream
of dark-mode yields, as it arrives) connected to the emulator, and the admin API's locks. The latency is
measured from the click to the line of the client's yield.

Every wait is bounded; every check is an assertion that fails when the behaviour is missing.
"""

import argparse
import http.client
import http.server
import json
import queue
import re
import shutil
import statistics
import subprocess
import sys
import threading
import time
import unittest
from pathlib import Path

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.common.exceptions import StaleElementReferenceException
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import WebDriverWait

ARGS = None
SDK_KEY = "emulator-sdk-key"
EXAMPLES = Path(__file__).resolve().parents[2] / "Tools/ConfigEmulator/Examples/configs.json"


class Process:
    """A child process whose output lines are collected, each with the monotonic time it arrived."""

    def __init__(self, command):
        self.command = command
        self.process = subprocess.Popen(
            command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, text=True, bufsize=1
        )
        self.lines = queue.Queue()
        self.all = []
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()

    def _read(self):
        with self.process.stdout:
            for line in self.process.stdout:
                stamped = (time.monotonic(), line.rstrip("\n"))
                self.all.append(stamped[1])
                self.lines.put(stamped)

    def wait_for(self, pattern, timeout):
        """The first line from now on matching `pattern`, as (time, match); fails after `timeout` s."""
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise AssertionError(f"no line matching {pattern!r} from {self.command[0]} within {timeout} s; "
                                     f"output so far: {self.all[-20:]}")
            try:
                at, line = self.lines.get(timeout=left)
            except queue.Empty:
                continue
            match = re.search(pattern, line)
            if match:
                return at, match

    def drain(self):
        while not self.lines.empty():
            self.lines.get_nowait()

    def stop(self):
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=10)
        self.reader.join(timeout=10)  # the reader closes the pipe at its end


def start_emulator(*arguments):
    emulator = Process([str(Path(ARGS.bin) / "config-emulator"), "--port", "0", *arguments])
    _, match = emulator.wait_for(r"dashboard: (http://[0-9.]+:(\d+)/)", 60)
    emulator.url, emulator.port = match.group(1), int(match.group(2))
    token = None
    if "0.0.0.0" in arguments:
        _, found = emulator.wait_for(r"admin token: (\S+)", 10)
        token = found.group(1)
    emulator.token = token
    return emulator


def request(port, method, path, body=None, headers=None, host=None):
    """One HTTP request to 127.0.0.1:port; returns (status, headers, body text)."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    try:
        connection.putrequest(method, path, skip_host=True)
        connection.putheader("Host", host or f"127.0.0.1:{port}")
        data = None if body is None else json.dumps(body).encode()
        for name, value in (headers or {}).items():
            connection.putheader(name, value)
        if data is not None:
            connection.putheader("Content-Type", "application/json")
            connection.putheader("Content-Length", str(len(data)))
        connection.endheaders(data)
        response = connection.getresponse()
        return response.status, {k.lower(): v for k, v in response.getheaders()}, response.read().decode()
    finally:
        connection.close()


def admin(port, method, path, body=None, token="1"):
    status, _, text = request(port, method, "/admin/" + path, body, {"X-Emulator-Admin": token})
    assert 200 <= status < 300, f"{method} /admin/{path}: {status} {text}"
    return json.loads(text) if text else None


def config(port, key):
    return admin(port, "GET", "configs/" + key)


def make_driver(width, height):
    options = webdriver.ChromeOptions()
    options.binary_location = shutil.which("chromium")
    for argument in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
                     f"--window-size={width},{height}", "--no-first-run", "--disable-extensions"):
        options.add_argument(argument)
    return webdriver.Chrome(service=Service(executable_path=shutil.which("chromedriver")), options=options)


class Attacker(http.server.BaseHTTPRequestHandler):
    """A page of another origin (another loopback port) that tries the admin API with fetch."""

    target = 0

    def do_GET(self):
        page = f"""<!doctype html><title>attacker</title><pre id=out></pre><script>
        const target = 'http://127.0.0.1:{Attacker.target}';
        const results = {{}};
        async function attempt(name, url, init) {{
          try {{ const r = await fetch(url, init); results[name] = 'status ' + r.status + ' ' + await r.text(); }}
          catch (e) {{ results[name] = 'refused: ' + e.message; }}
        }}
        (async () => {{
          await attempt('simple', target + '/admin/configs/dark-mode/value',
            {{ method: 'PUT', body: 'true', headers: {{ 'Content-Type': 'text/plain' }} }});
          await attempt('simplePost', target + '/admin/configs',
            {{ method: 'POST', body: JSON.stringify({{ key: 'pwned', type: 'string', value: 'x' }}),
               headers: {{ 'Content-Type': 'text/plain' }} }});
          await attempt('withHeader', target + '/admin/configs/dark-mode/value',
            {{ method: 'PUT', body: 'true', headers: {{ 'X-Emulator-Admin': '1', 'Content-Type': 'application/json' }} }});
          await attempt('read', target + '/admin/configs', {{ headers: {{ 'X-Emulator-Admin': '1' }} }});
          await attempt('noCors', target + '/admin/configs/dark-mode/value',
            {{ method: 'PUT', body: 'true', mode: 'no-cors' }});
          document.getElementById('out').textContent = JSON.stringify(results);
          document.title = 'done';
        }})();
        </script>"""
        data = page.encode()
        self.send_response(200)
        self.send_header("Content-Type", "text/html")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, *args):
        pass


class DashboardTests(unittest.TestCase):
    latencies = []

    @classmethod
    def setUpClass(cls):
        cls.artefacts = Path(ARGS.artefacts)
        cls.artefacts.mkdir(parents=True, exist_ok=True)
        cls.emulator = start_emulator("--configs", str(EXAMPLES))
        cls.port = cls.emulator.port
        cls.demo = Process([str(Path(ARGS.bin) / "config-demo"), "--base-url", f"http://127.0.0.1:{cls.port}",
                            "--sdk-key", SDK_KEY, "--key", "dark-mode:bool", "--plain"])
        cls.demo.wait_for(r"Following changes until Ctrl-C", 60)
        cls.driver = make_driver(1280, 800)
        cls.driver.get(cls.emulator.url)
        # A row is drawn anew when its config changes: an element found before may go stale in a wait.
        cls.wait = WebDriverWait(cls.driver, 20, ignored_exceptions=[StaleElementReferenceException])
        cls.wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, 'article[data-key="dark-mode"]'))

    @classmethod
    def tearDownClass(cls):
        cls.driver.quit()
        cls.demo.stop()
        cls.emulator.stop()

    def click_when_drawn(self, selector):
        """Clicks the element, finding it again if the page redraws it in between."""
        def click(driver):
            driver.find_element(By.CSS_SELECTOR, selector).click()
            return True
        self.wait.until(click)

    def switch(self):
        return self.driver.find_element(By.CSS_SELECTOR, 'article[data-key="dark-mode"] input[role="switch"]')

    def flip_and_measure(self, press=None):
        before = config(self.port, "dark-mode")["value"]
        expected = "false" if before else "true"
        self.demo.drain()
        clicked = time.monotonic()
        if press:
            press()
        else:
            self.switch().click()
        yielded, _ = self.demo.wait_for(rf"dark-mode = {expected}\b", 20)
        self.assertEqual(config(self.port, "dark-mode")["value"], not before)
        latency = (yielded - clicked) * 1000
        DashboardTests.latencies.append(latency)
        # The page shows the new value once the admin event stream brings it.
        self.wait.until(lambda d: self.switch().is_selected() == (not before))
        return latency

    def test_01_lists_configs_and_the_clients_stream(self):
        keys = [a.get_attribute("data-key") for a in self.driver.find_elements(By.CSS_SELECTOR, "article.config")]
        self.assertEqual(keys, sorted(c["key"] for c in json.loads(EXAMPLES.read_text())["configs"]))
        self.wait.until(lambda d: "config-demo-user" in d.find_element(By.ID, "streams").text)
        self.assertIn("Live", self.driver.find_element(By.ID, "live").text)
        self.assertIn(SDK_KEY, self.driver.find_element(By.ID, "sdk-key").text)

    def test_02_a_flipped_switch_reaches_the_client(self):
        for _ in range(5):
            self.flip_and_measure()

    def test_03_invalid_json_is_refused_and_nothing_changes(self):
        before = config(self.port, "theme")
        last_event = admin(self.port, "GET", "health")["lastEventId"]
        article = self.driver.find_element(By.CSS_SELECTOR, 'article[data-key="theme"]')
        field = article.find_element(By.TAG_NAME, "textarea")
        field.clear()
        field.send_keys('{"primaryColor": "red",')
        article.find_element(By.CSS_SELECTOR, "form.value-form button[type=submit]").click()
        error = article.find_element(By.CSS_SELECTOR, "form.value-form .error")
        self.wait.until(lambda d: error.text)
        self.assertIn("Invalid JSON", error.text)
        # A later change reaches the client: had the invalid edit been sent, it would have come before it.
        self.flip_and_measure()
        self.assertEqual(config(self.port, "theme"), before)
        after = admin(self.port, "GET", "health")["lastEventId"]
        self.assertEqual(int(after.split("-")[1]), int(last_event.split("-")[1]) + 1)

    def test_04_number_fields_refuse_what_is_not_a_number(self):
        for key, text in (("max-items", "1.2.3"), ("max-items", "12.5"), ("discount-rate", "1.2.3")):
            article = self.driver.find_element(By.CSS_SELECTOR, f'article[data-key="{key}"]')
            field = article.find_element(By.CSS_SELECTOR, "input[data-role=value]")
            field.clear()
            field.send_keys(text)
            article.find_element(By.CSS_SELECTOR, "form.value-form button[type=submit]").click()
            error = article.find_element(By.CSS_SELECTOR, "form.value-form .error")
            self.wait.until(lambda d: error.text)
            self.assertIn("not", error.text)
        self.assertEqual(config(self.port, "max-items")["value"], 20)
        self.assertEqual(config(self.port, "discount-rate")["value"], 0.15)

    def test_05_dropped_streams_reconnect_and_show_again(self):
        old = {s["id"] for s in admin(self.port, "GET", "streams")}
        self.assertTrue(old)
        self.driver.find_element(By.ID, "drop-streams").click()

        def new_stream_shown(driver):
            rows = driver.find_elements(By.CSS_SELECTOR, "#streams tbody tr[data-stream]")
            return [r for r in rows if int(r.get_attribute("data-stream")) not in old
                    and "config-demo-user" in r.text]

        self.wait.until(new_stream_shown)
        self.assertFalse(old & {s["id"] for s in admin(self.port, "GET", "streams")})
        self.flip_and_measure()  # the reconnected client still follows changes

    def test_06_telemetry_from_the_client_is_shown(self):
        WebDriverWait(self.driver, 60).until(
            lambda d: "swift-client-sdk" in d.find_element(By.ID, "telemetry").text
            and "dark-mode" in d.find_element(By.ID, "evaluations").text)

    def test_07_rules_and_configs_are_added_and_removed(self):
        form = self.driver.find_element(By.ID, "add-config")
        self.driver.find_element(By.CSS_SELECTOR, "details.add summary").click()
        form.find_element(By.NAME, "key").send_keys("browser-flag")
        form.find_element(By.NAME, "type").send_keys("boolean")
        form.find_element(By.NAME, "value").send_keys("true")
        form.find_element(By.CSS_SELECTOR, "button[type=submit]").click()
        self.wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, 'article[data-key="browser-flag"]'))
        self.assertEqual(config(self.port, "browser-flag")["value"], True)
        article = self.driver.find_element(By.CSS_SELECTOR, 'article[data-key="browser-flag"]')
        article.find_element(By.CSS_SELECTOR, "details summary").click()
        rule = article.find_element(By.CSS_SELECTOR, "form[data-role=add-rule]")
        rule.find_element(By.NAME, "trait").send_keys("plan")
        rule.find_element(By.NAME, "equals").send_keys('"pro"')
        rule.find_element(By.NAME, "value").send_keys("false")
        rule.find_element(By.CSS_SELECTOR, "button[type=submit]").click()
        self.wait.until(lambda d: config(self.port, "browser-flag").get("rules"))
        self.assertEqual(config(self.port, "browser-flag")["rules"], [{"trait": "plan", "equals": "pro", "value": False}])
        self.click_when_drawn('article[data-key="browser-flag"] .rules li button')
        self.wait.until(lambda d: not config(self.port, "browser-flag").get("rules"))
        # The server has dropped the rule; the page draws the article anew once the event stream brings that.
        # Clicking before then would hit the article that is about to be replaced.
        self.wait.until(lambda d: not d.find_elements(By.CSS_SELECTOR, 'article[data-key="browser-flag"] .rules'))
        self.click_when_drawn('article[data-key="browser-flag"] header .remove')
        self.wait.until(lambda d: not d.find_elements(By.CSS_SELECTOR, 'article[data-key="browser-flag"]'))
        status, _, _ = request(self.port, "GET", "/admin/configs/browser-flag", headers={"X-Emulator-Admin": "1"})
        self.assertEqual(status, 404)

    def test_08_keyboard_reaches_the_switch_and_every_control_has_a_label(self):
        unlabelled = self.driver.execute_script("""
            return [...document.querySelectorAll('input, select, textarea, button')].filter(e => {
              const label = e.getAttribute('aria-label') || (e.labels && e.labels.length && e.labels[0].textContent)
                || (e.tagName === 'BUTTON' && e.textContent.trim());
              return !label || !String(label).trim();
            }).map(e => e.outerHTML.slice(0, 80));""")
        self.assertEqual(unlabelled, [])
        body = self.driver.find_element(By.TAG_NAME, "body")
        self.driver.execute_script("document.activeElement.blur(); window.scrollTo(0, 0);")
        target = self.switch()
        for _ in range(300):
            body = self.driver.switch_to.active_element
            if body == target:
                break
            body.send_keys(Keys.TAB)
        self.assertEqual(self.driver.switch_to.active_element, target, "Tab never reached the dark-mode switch")
        self.flip_and_measure(press=lambda: self.driver.switch_to.active_element.send_keys(Keys.SPACE))

    def test_09_readable_at_both_sizes_with_screenshots(self):
        for width, height, name in ((1280, 800, "dashboard-1280x800.png"), (390, 844, "dashboard-390x844.png")):
            # The viewport itself, as a phone or a laptop shows it (a window's size includes its frame).
            self.driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
                "width": width, "height": height, "deviceScaleFactor": 1, "mobile": width < 600})
            self.driver.execute_script("window.scrollTo(0, 0)")
            self.wait.until(lambda d: d.execute_script("return window.innerWidth") == width)
            overflow = self.driver.execute_script(
                "return document.documentElement.scrollWidth - document.documentElement.clientWidth")
            self.assertLessEqual(overflow, 0, f"the page scrolls sideways at {width}x{height}")
            self.assertTrue(self.driver.save_screenshot(str(self.artefacts / name)))
        # Dark mode follows the system's preference.
        background = "return getComputedStyle(document.body).backgroundColor"
        light = self.driver.execute_script(background)
        self.driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {
            "features": [{"name": "prefers-color-scheme", "value": "dark"}]})
        dark = self.driver.execute_script(background)
        self.assertTrue(self.driver.save_screenshot(str(self.artefacts / "dashboard-dark-390x844.png")))
        self.driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": []})
        self.driver.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})
        brightness = lambda color: sum(int(n) for n in re.findall(r"\d+", color)[:3])
        self.assertGreater(brightness(light), 600, light)
        self.assertLess(brightness(dark), 150, dark)

    def test_10_a_page_of_another_origin_cannot_use_the_admin_api(self):
        before = admin(self.port, "GET", "configs")
        Attacker.target = self.port
        server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Attacker)
        threading.Thread(target=server.serve_forever, daemon=True).start()
        try:
            self.driver.get(f"http://127.0.0.1:{server.server_address[1]}/attack.html")
            WebDriverWait(self.driver, 20).until(lambda d: d.title == "done")
            results = json.loads(self.driver.find_element(By.ID, "out").text)
        finally:
            server.shutdown()
            server.server_close()
            self.driver.get(self.emulator.url)
        for name in ("simple", "simplePost", "withHeader", "read"):
            self.assertTrue(results[name].startswith("refused"), f"{name}: {results[name]}")
        self.assertEqual(admin(self.port, "GET", "configs"), before)

    def test_11_foreign_host_missing_header_and_preflight_are_refused(self):
        for path in ("/", "/admin/configs", "/admin/events"):
            status, _, _ = request(self.port, "GET", path, headers={"X-Emulator-Admin": "1"},
                                   host=f"rebound.example:{self.port}")
            self.assertEqual(status, 403, path)
        status, _, _ = request(self.port, "GET", "/admin/configs", headers={"X-Emulator-Admin": "1"},
                               host="127.0.0.1:1")
        self.assertEqual(status, 403)
        status, _, _ = request(self.port, "GET", "/admin/configs")
        self.assertEqual(status, 403)
        status, _, _ = request(self.port, "PUT", "/admin/configs/dark-mode/value", body=True)
        self.assertEqual(status, 403)
        status, headers, _ = request(self.port, "OPTIONS", "/admin/configs", headers={
            "Origin": "http://127.0.0.1:1", "Access-Control-Request-Method": "PUT",
            "Access-Control-Request-Headers": "x-emulator-admin"})
        self.assertEqual(status, 403)
        self.assertNotIn("access-control-allow-origin", headers)
        body = {"clientSdkKey": SDK_KEY, "givenContext": {"id": "user-1"}}
        status, _, _ = request(self.port, "POST", "/client/polling/v1", body=body, host=f"rebound.example:{self.port}")
        self.assertEqual(status, 200, "client endpoints need the SDK key alone")

    def test_12_beyond_loopback_the_admin_token_is_required(self):
        exposed = start_emulator("--host", "0.0.0.0")
        driver = None
        try:
            self.assertRegex(exposed.token or "", r"^[0-9a-f]{32}$")
            for header in ({}, {"X-Emulator-Admin": "1"}, {"X-Emulator-Admin": "wrong"}):
                status, _, _ = request(exposed.port, "GET", "/admin/health", headers=header)
                self.assertEqual(status, 401, header)
            status, _, _ = request(exposed.port, "GET", "/admin/health", headers={"X-Emulator-Admin": exposed.token})
            self.assertEqual(status, 200)
            driver = make_driver(1280, 800)
            driver.get(f"http://127.0.0.1:{exposed.port}/")
            dialog = WebDriverWait(driver, 20).until(
                lambda d: d.find_element(By.ID, "token-dialog").get_attribute("open") is not None
                and d.find_element(By.ID, "token-dialog"))
            dialog.find_element(By.NAME, "token").send_keys(exposed.token)
            dialog.find_element(By.CSS_SELECTOR, "button[type=submit]").click()
            WebDriverWait(driver, 20).until(lambda d: d.find_element(By.ID, "live").text == "Live")
            # No configs: the empty state says how to connect an app.
            empty = driver.find_element(By.ID, "empty")
            self.assertTrue(empty.is_displayed())
            self.assertIn("--configs", empty.text)
            overflow = driver.execute_script(
                "return document.documentElement.scrollWidth - document.documentElement.clientWidth")
            self.assertLessEqual(overflow, 0, "the empty state scrolls sideways")
            self.assertIn(SDK_KEY, driver.find_element(By.ID, "snippet").text)
            driver.save_screenshot(str(self.artefacts / "dashboard-empty-1280x800.png"))
        finally:
            if driver:
                driver.quit()
            exposed.stop()


def main():
    global ARGS
    parser = argparse.ArgumentParser()
    parser.add_argument("--bin", required=True)
    parser.add_argument("--artefacts", required=True)
    ARGS, rest = parser.parse_known_args()
    program = unittest.main(argv=[sys.argv[0], "-v", *rest], exit=False)
    if DashboardTests.latencies:
        latencies = sorted(DashboardTests.latencies)
        summary = (f"click to the client's values(for:) yield: median {statistics.median(latencies):.0f} ms, "
                   f"min {latencies[0]:.0f} ms, max {latencies[-1]:.0f} ms over {len(latencies)} flips")
        print(summary)
        (Path(ARGS.artefacts) / "latency.txt").write_text(summary + "\n")
    sys.exit(0 if program.result.wasSuccessful() else 1)


if __name__ == "__main__":
    main()
