//! Loads a report page in headless Chromium and tells how long its first screen took; with
//! `--png OUT`, also saves a screenshot (the README's pictures are made this way).
//!
//! ```text
//! cargo run --release -p drafti-tests --example report_page -- report.html \
//!     [--fragment g1-2-p17] [--width 1280] [--height 900] [--mobile] [--png out.png]
//! ```
//! Prints the time from the start of navigation to the first contentful paint, to the load
//! event, and to the first frame drawn after it (with a fragment: the first frame with that
//! game's viewer built), in ms as the page's own clock counts them, and the requests the page
//! made.
#![allow(clippy::print_stdout, clippy::print_stderr, clippy::exit)]

use base64::Engine as _;
use drafti_tests::browser::{file_url, Browser};
use std::path::PathBuf;

fn main() -> Result<(), String> {
    let mut args = std::env::args().skip(1);
    let mut page: Option<PathBuf> = None;
    let (mut fragment, mut width, mut height, mut mobile, mut png) = (None, 1280, 900, false, None);
    while let Some(a) = args.next() {
        match a.as_str() {
            "--fragment" => fragment = args.next(),
            "--width" => width = args.next().and_then(|v| v.parse().ok()).unwrap_or(width),
            "--height" => height = args.next().and_then(|v| v.parse().ok()).unwrap_or(height),
            "--mobile" => mobile = true,
            "--png" => png = args.next().map(PathBuf::from),
            _ => page = Some(PathBuf::from(a)),
        }
    }
    let page = page.ok_or("usage: report_page PAGE.html [--fragment F] [--png OUT]")?;
    let mut browser = Browser::launch(width, height, mobile)?;
    let mut url = file_url(&page);
    if let Some(f) = &fragment {
        url = format!("{url}#{f}");
    }
    browser.navigate(&url)?;
    let ready = match &fragment {
        Some(f) => format!(
            "document.getElementById('{}').querySelector('.vw')",
            f.split("-p").next().unwrap_or_default()
        ),
        None => "true".to_string(),
    };
    let drawn = browser.eval(&format!(
        "new Promise(function (done) {{ (function wait() {{ \
           if ({ready}) requestAnimationFrame(function () {{ \
             requestAnimationFrame(function () {{ done(performance.now()); }}); }}); \
           else setTimeout(wait, 5); }})(); }})"
    ))?;
    let timing = browser.eval(
        "JSON.stringify({fcp: (performance.getEntriesByName('first-contentful-paint')[0] || {}).startTime, \
          load: performance.getEntriesByType('navigation')[0].loadEventStart})",
    )?;
    println!("{url}");
    println!(
        "timing (ms from navigation start): {timing}, first frame drawn {:.0}",
        drawn.as_f64().unwrap_or(f64::NAN)
    );
    let requests = browser.requests();
    println!("{} request(s): {:?}", requests.len(), requests);
    if let Some(out) = png {
        let data = browser.screenshot_base64()?;
        let bytes = base64::engine::general_purpose::STANDARD
            .decode(data)
            .map_err(|e| e.to_string())?;
        std::fs::write(&out, bytes).map_err(|e| e.to_string())?;
        println!("wrote {}", out.display());
    }
    Ok(())
}
