//! A headless Chromium driven over the DevTools protocol through a pipe
//! (`--remote-debugging-pipe`: the browser reads commands on fd 3 and writes replies and
//! events on fd 4, each a JSON text ended by a NUL byte). No port, no websocket, nothing
//! but the browser and this process; used by the report's browser tests (the DOM, and the
//! pixels drawn: [`Browser::screenshot`]) and by the `report_page` example (render times and
//! screenshots for the docs).

use serde_json::{json, Value};
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

/// How long any one command or awaited event may take before the driver gives up.
pub const TIMEOUT: Duration = Duration::from_secs(60);

/// The flags every launch uses: headless, and nothing that reaches for the network
/// (without the background-networking ones Chromium tries Google's hosts at every start).
const FLAGS: &[&str] = &[
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--no-default-browser-check",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-extensions",
    "--disable-dev-shm-usage",
    "--hide-scrollbars",
    "--remote-debugging-pipe",
];

/// The Chromium binary: `$DRAFTI_CHROMIUM`, else the first of the usual names on `PATH`.
pub fn chromium_binary() -> Option<PathBuf> {
    if let Some(path) = std::env::var_os("DRAFTI_CHROMIUM") {
        return Some(PathBuf::from(path));
    }
    let path = std::env::var_os("PATH")?;
    for dir in std::env::split_paths(&path) {
        for name in ["chromium", "chromium-browser", "google-chrome", "chrome"] {
            let candidate = dir.join(name);
            if candidate.is_file() {
                return Some(candidate);
            }
        }
    }
    None
}

/// A running browser with one page (tab) attached.
pub struct Browser {
    child: Child,
    commands: std::io::PipeWriter,
    messages: Receiver<Value>,
    next_id: u64,
    session: String,
    /// Every event of the page received so far (`method`, `params`), in order.
    pub events: Vec<Value>,
    profile: PathBuf,
}

impl Browser {
    /// Starts Chromium with a fresh profile and opens a blank page of `width`×`height` CSS
    /// pixels (`mobile`: as a phone, with touch and the viewport meta tag honoured).
    pub fn launch(width: u32, height: u32, mobile: bool) -> Result<Browser, String> {
        let binary = chromium_binary().ok_or(
            "no Chromium found (install the Debian package `chromium`, or set DRAFTI_CHROMIUM)",
        )?;
        let profile = std::env::temp_dir().join(format!(
            "drafti-chromium-{}-{}",
            std::process::id(),
            PROFILES.fetch_add(1, std::sync::atomic::Ordering::Relaxed)
        ));
        let _ = std::fs::remove_dir_all(&profile);
        std::fs::create_dir_all(&profile).map_err(|e| e.to_string())?;
        let (browser_reads, commands) = std::io::pipe().map_err(|e| e.to_string())?;
        let (replies, browser_writes) = std::io::pipe().map_err(|e| e.to_string())?;
        let mut command = Command::new(&binary);
        command
            .args(FLAGS)
            .arg(format!("--user-data-dir={}", profile.display()))
            .arg("about:blank")
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null());
        {
            use std::os::fd::AsRawFd;
            use std::os::unix::process::CommandExt;
            let read_fd = browser_reads.as_raw_fd();
            let write_fd = browser_writes.as_raw_fd();
            // SAFETY: between fork and exec only fcntl and dup2 run (async-signal-safe). They
            // put the pipe ends where `--remote-debugging-pipe` expects them: first out of
            // the way (either may already be fd 3 or 4), then onto 3 and 4, where dup2 leaves
            // them open across exec.
            unsafe {
                command.pre_exec(move || {
                    let high_read = libc::fcntl(read_fd, libc::F_DUPFD, 10);
                    let high_write = libc::fcntl(write_fd, libc::F_DUPFD, 10);
                    if high_read < 0
                        || high_write < 0
                        || libc::dup2(high_read, 3) < 0
                        || libc::dup2(high_write, 4) < 0
                    {
                        return Err(std::io::Error::last_os_error());
                    }
                    libc::close(high_read);
                    libc::close(high_write);
                    Ok(())
                });
            }
        }
        let child = command
            .spawn()
            .map_err(|e| format!("cannot start {}: {e}", binary.display()))?;
        drop(browser_reads);
        drop(browser_writes);
        let (tx, messages) = channel();
        std::thread::spawn(move || {
            let mut reader = BufReader::new(replies);
            loop {
                let mut buf = Vec::new();
                match reader.read_until(0, &mut buf) {
                    Ok(0) | Err(_) => break,
                    Ok(_) => {
                        if buf.last() == Some(&0) {
                            buf.pop();
                        }
                        match serde_json::from_slice::<Value>(&buf) {
                            Ok(v) => {
                                if tx.send(v).is_err() {
                                    break;
                                }
                            }
                            Err(_) => continue,
                        }
                    }
                }
            }
        });
        let mut browser = Browser {
            child,
            commands,
            messages,
            next_id: 0,
            session: String::new(),
            events: Vec::new(),
            profile,
        };
        let target = browser.browser_call("Target.createTarget", json!({"url": "about:blank"}))?;
        let target_id = target["targetId"].as_str().unwrap_or_default().to_string();
        let attached = browser.browser_call(
            "Target.attachToTarget",
            json!({"targetId": target_id, "flatten": true}),
        )?;
        browser.session = attached["sessionId"]
            .as_str()
            .ok_or("no session id")?
            .to_string();
        for domain in ["Page.enable", "Network.enable", "Runtime.enable"] {
            browser.call(domain, json!({}))?;
        }
        browser.call(
            "Emulation.setDeviceMetricsOverride",
            json!({"width": width, "height": height, "deviceScaleFactor": if mobile { 2 } else { 1 }, "mobile": mobile}),
        )?;
        if mobile {
            browser.call(
                "Emulation.setTouchEmulationEnabled",
                json!({"enabled": true}),
            )?;
        }
        Ok(browser)
    }

    fn send(
        &mut self,
        session: Option<&str>,
        method: &str,
        params: Value,
    ) -> Result<Value, String> {
        self.next_id += 1;
        let id = self.next_id;
        let mut message = json!({"id": id, "method": method, "params": params});
        if let Some(s) = session {
            message["sessionId"] = json!(s);
        }
        let mut bytes = serde_json::to_vec(&message).map_err(|e| e.to_string())?;
        bytes.push(0);
        self.commands
            .write_all(&bytes)
            .map_err(|e| format!("{method}: the browser went away: {e}"))?;
        let deadline = Instant::now() + TIMEOUT;
        loop {
            let m = self.receive(deadline, method)?;
            if m["id"].as_u64() == Some(id) {
                if let Some(error) = m.get("error") {
                    return Err(format!("{method}: {error}"));
                }
                return Ok(m["result"].clone());
            }
        }
    }

    fn receive(&mut self, deadline: Instant, what: &str) -> Result<Value, String> {
        let left = deadline.saturating_duration_since(Instant::now());
        match self.messages.recv_timeout(left) {
            Ok(m) => {
                if m.get("method").is_some() {
                    self.events.push(m.clone());
                }
                Ok(m)
            }
            Err(RecvTimeoutError::Timeout) => Err(format!("{what}: no answer in {TIMEOUT:?}")),
            Err(RecvTimeoutError::Disconnected) => Err(format!("{what}: the browser went away")),
        }
    }

    fn browser_call(&mut self, method: &str, params: Value) -> Result<Value, String> {
        self.send(None, method, params)
    }

    /// A command to the page.
    pub fn call(&mut self, method: &str, params: Value) -> Result<Value, String> {
        let session = self.session.clone();
        self.send(Some(&session), method, params)
    }

    /// Waits for the page's next event `method` (one already received counts if it came
    /// after event number `since`); returns its params.
    pub fn wait_event(&mut self, method: &str, since: usize) -> Result<Value, String> {
        let deadline = Instant::now() + TIMEOUT;
        let mut seen = since;
        loop {
            if let Some(e) = self.events[seen..].iter().find(|e| e["method"] == method) {
                return Ok(e["params"].clone());
            }
            seen = self.events.len();
            self.receive(deadline, method)?;
        }
    }

    /// Loads `url` and waits for its load event (a new fragment of the page shown is a
    /// navigation within the document: it has no load event, and nothing to wait for).
    pub fn navigate(&mut self, url: &str) -> Result<(), String> {
        let since = self.events.len();
        let result = self.call("Page.navigate", json!({"url": url}))?;
        if let Some(error) = result.get("errorText").and_then(Value::as_str) {
            return Err(format!("cannot load {url}: {error}"));
        }
        if result.get("loaderId").is_some() {
            self.wait_event("Page.loadEventFired", since)?;
        }
        Ok(())
    }

    /// Evaluates a JavaScript expression in the page; returns its value (promises awaited).
    pub fn eval(&mut self, expression: &str) -> Result<Value, String> {
        let r = self.call(
            "Runtime.evaluate",
            json!({"expression": expression, "returnByValue": true, "awaitPromise": true}),
        )?;
        if let Some(e) = r.get("exceptionDetails") {
            return Err(format!("{expression}: {e}"));
        }
        Ok(r["result"]["value"].clone())
    }

    /// Presses and releases a key (`ArrowRight`, `Home`…), as a user would.
    pub fn press(&mut self, key: &str) -> Result<(), String> {
        let code = match key {
            "ArrowLeft" => 37,
            "ArrowRight" => 39,
            "Home" => 36,
            "End" => 35,
            _ => 0,
        };
        for kind in ["rawKeyDown", "keyUp"] {
            self.call(
                "Input.dispatchKeyEvent",
                json!({"type": kind, "key": key, "code": key, "windowsVirtualKeyCode": code, "nativeVirtualKeyCode": code}),
            )?;
        }
        Ok(())
    }

    /// The URL of every request the page made, in order.
    pub fn requests(&self) -> Vec<String> {
        self.events
            .iter()
            .filter(|e| e["method"] == "Network.requestWillBeSent")
            .filter_map(|e| e["params"]["request"]["url"].as_str().map(String::from))
            .collect()
    }

    /// The viewport as PNG (base64, as the protocol gives it).
    pub fn screenshot_base64(&mut self) -> Result<String, String> {
        let r = self.call("Page.captureScreenshot", json!({"format": "png"}))?;
        r["data"]
            .as_str()
            .map(String::from)
            .ok_or_else(|| "no screenshot data".to_string())
    }

    /// The viewport as drawn, pixel by pixel (what a reader sees, not what the DOM says).
    pub fn screenshot(&mut self) -> Result<Screenshot, String> {
        use base64::Engine as _;
        let scale = self
            .eval("devicePixelRatio")?
            .as_f64()
            .ok_or("no devicePixelRatio")?;
        let png = base64::engine::general_purpose::STANDARD
            .decode(self.screenshot_base64()?)
            .map_err(|e| format!("the screenshot's base64: {e}"))?;
        Screenshot::from_png(&png, scale)
    }
}

/// A screenshot decoded: `width`×`height` device pixels, RGB, rows from the top; `scale`
/// device pixels to a CSS pixel.
pub struct Screenshot {
    pub width: u32,
    pub height: u32,
    pub scale: f64,
    rgb: Vec<u8>,
}

impl Screenshot {
    /// Decodes a PNG (any colour type; transparency dropped).
    pub fn from_png(bytes: &[u8], scale: f64) -> Result<Screenshot, String> {
        let mut decoder = png::Decoder::new(std::io::Cursor::new(bytes));
        decoder.set_transformations(png::Transformations::normalize_to_color8());
        let mut reader = decoder
            .read_info()
            .map_err(|e| format!("the screenshot's PNG: {e}"))?;
        let size = reader
            .output_buffer_size()
            .ok_or("the screenshot's PNG is too big")?;
        let mut buf = vec![0; size];
        let info = reader
            .next_frame(&mut buf)
            .map_err(|e| format!("the screenshot's PNG: {e}"))?;
        let channels = info.color_type.samples();
        let mut rgb = Vec::with_capacity(info.width as usize * info.height as usize * 3);
        for row in buf[..info.buffer_size()].chunks(info.line_size) {
            for px in row.chunks(channels).take(info.width as usize) {
                match channels {
                    1 | 2 => rgb.extend_from_slice(&[px[0]; 3]),
                    _ => rgb.extend_from_slice(&px[..3]),
                }
            }
        }
        Ok(Screenshot {
            width: info.width,
            height: info.height,
            scale,
            rgb,
        })
    }

    /// The colour at the point (`x`, `y`) of the viewport in CSS pixels, or `None` outside it.
    pub fn at(&self, x: f64, y: f64) -> Option<[u8; 3]> {
        let (px, py) = ((x * self.scale).floor(), (y * self.scale).floor());
        if px < 0.0 || py < 0.0 || px >= f64::from(self.width) || py >= f64::from(self.height) {
            return None;
        }
        let i = (py as usize * self.width as usize + px as usize) * 3;
        Some([self.rgb[i], self.rgb[i + 1], self.rgb[i + 2]])
    }
}

static PROFILES: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);

impl Drop for Browser {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        let _ = std::fs::remove_dir_all(&self.profile);
    }
}

/// `file://` URL of a local file.
pub fn file_url(path: &Path) -> String {
    let absolute = std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf());
    format!("file://{}", absolute.display())
}
