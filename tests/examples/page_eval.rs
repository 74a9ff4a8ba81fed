//! Opens a page in headless Chromium, waits until a JavaScript expression is true, then prints
//! the value of another (a promise is awaited); with `--png OUT`, saves a screenshot. For
//! looking at what a page does (the report's analysis board, the WebAssembly example page).
//!
//! ```text
//! cargo run --release -p drafti-tests --example page_eval -- URL_OR_FILE \
//!     [--until EXPR] [--eval EXPR] [--width 1280] [--height 900] [--mobile] [--png out.png]
//! ```
#![allow(clippy::print_stdout)]

use base64::Engine as _;
use drafti_tests::browser::{file_url, Browser};
use std::path::Path;

fn main() -> Result<(), String> {
    let mut args = std::env::args().skip(1);
    let (mut page, mut until, mut eval) = (None, "true".to_string(), "document.title".to_string());
    let (mut width, mut height, mut mobile, mut png) = (1280, 900, false, None);
    while let Some(a) = args.next() {
        match a.as_str() {
            "--until" => until = args.next().ok_or("--until EXPR")?,
            "--eval" => eval = args.next().ok_or("--eval EXPR")?,
            "--width" => width = args.next().and_then(|v| v.parse().ok()).unwrap_or(width),
            "--height" => height = args.next().and_then(|v| v.parse().ok()).unwrap_or(height),
            "--mobile" => mobile = true,
            "--png" => png = args.next(),
            _ => page = Some(a),
        }
    }
    let page = page.ok_or("usage: page_eval URL_OR_FILE [--until EXPR] [--eval EXPR]")?;
    let url = if page.contains("://") {
        page
    } else {
        file_url(Path::new(&page))
    };
    let mut browser = Browser::launch(width, height, mobile)?;
    browser.navigate(&url)?;
    browser.eval(&format!(
        "new Promise(function (done) {{ (function wait() {{ \
           if ({until}) requestAnimationFrame(function () {{ done(true); }}); \
           else setTimeout(wait, 20); }})(); }})"
    ))?;
    println!("{}", browser.eval(&eval)?);
    if let Some(out) = png {
        let data = base64::engine::general_purpose::STANDARD
            .decode(browser.screenshot_base64()?)
            .map_err(|e| e.to_string())?;
        std::fs::write(&out, data).map_err(|e| format!("{out}: {e}"))?;
    }
    Ok(())
}
