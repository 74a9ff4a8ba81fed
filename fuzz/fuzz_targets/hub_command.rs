//! Any line a GUI or an engine may send on the Hub protocol: parsing it as an engine's
//! message and as a GUI's command, and its position and moves, must not panic; what parses
//! writes back in a form that parses the same. The input is cut into lines as a peer's
//! reader cuts it (a line holds no line break, which no written line can hold either).
#![no_main]
#![forbid(unsafe_code)]

use drafti_hub::protocol::{parse_position, position_string, Command, HubMove, Message};
use drafti_rules::Variant;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    for line in text.split(['\n', '\r']) {
        check_line(line);
    }
});

fn check_line(line: &str) {
    if let Ok(Some(message)) = Message::parse(line) {
        let again = Message::parse(&message.to_string())
            .unwrap_or_else(|e| panic!("{message} no longer parses: {e}"));
        assert_eq!(again.as_ref(), Some(&message), "{line:?}");
    }
    let _ = Command::parse(line);
    if let Ok(pos) = parse_position(line) {
        let text = position_string(&pos);
        assert_eq!(parse_position(&text).ok(), Some(pos), "{text}");
        for word in line.split_whitespace() {
            if let Ok(mv) = HubMove::parse(word) {
                for variant in Variant::ALL {
                    let _ = mv.resolve(&pos, variant);
                }
            }
        }
    }
}
