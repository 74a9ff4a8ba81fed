//! Lossy decoding of text that is not UTF-8 (tag values and comments of old archives).
//!
//! Russian archives are often in Windows-1251 (or DOS CP866), Western ones in Latin-1. The
//! guess: if most bytes ≥ 0x80 stand next to another such byte, the text is written in a
//! non-Latin alphabet (Cyrillic), and of Windows-1251 and CP866 the one that yields more
//! Russian letters wins; otherwise it is Latin-1 (read as Windows-1252, its superset).

use std::borrow::Cow;

/// `bytes` as UTF-8 text, and the name of the legacy encoding used if they were not UTF-8.
pub(crate) fn decode_text(bytes: &[u8]) -> (Cow<'_, str>, Option<&'static str>) {
    if let Ok(s) = std::str::from_utf8(bytes) {
        return (Cow::Borrowed(s), None);
    }
    let encoding = guess_legacy(bytes);
    let (text, _, _) = encoding.decode(bytes);
    (Cow::Owned(text.into_owned()), Some(encoding.name()))
}

fn guess_legacy(bytes: &[u8]) -> &'static encoding_rs::Encoding {
    let mut high = 0usize;
    let mut paired = 0usize;
    for (i, &b) in bytes.iter().enumerate() {
        if b >= 0x80 {
            high += 1;
            let prev = i > 0 && bytes[i - 1] >= 0x80;
            let next = bytes.get(i + 1).is_some_and(|&n| n >= 0x80);
            if prev || next {
                paired += 1;
            }
        }
    }
    if paired * 2 < high {
        return encoding_rs::WINDOWS_1252;
    }
    let russian = |enc: &'static encoding_rs::Encoding| {
        let (text, _, _) = enc.decode(bytes);
        text.chars()
            .filter(|c| ('\u{410}'..='\u{44f}').contains(c) || *c == 'ё' || *c == 'Ё')
            .count()
    };
    if russian(encoding_rs::IBM866) > russian(encoding_rs::WINDOWS_1251) {
        encoding_rs::IBM866
    } else {
        encoding_rs::WINDOWS_1251
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn utf8_is_borrowed() {
        let (text, enc) = decode_text("Абациев".as_bytes());
        assert!(matches!(text, Cow::Borrowed("Абациев")));
        assert_eq!(enc, None);
    }

    #[test]
    fn cyrillic_code_pages_are_told_apart() {
        let (cp1251, _, _) = encoding_rs::WINDOWS_1251.encode("Абациев Н.");
        assert_eq!(
            decode_text(&cp1251),
            (Cow::from("Абациев Н."), Some("windows-1251"))
        );
        let (cp866, _, _) = encoding_rs::IBM866.encode("Блиндер Б.");
        assert_eq!(
            decode_text(&cp866),
            (Cow::from("Блиндер Б."), Some("IBM866"))
        );
    }

    #[test]
    fn latin1_names() {
        let bytes = b"M\xfcller, Fran\xe7ois";
        assert_eq!(
            decode_text(bytes),
            (Cow::from("Müller, François"), Some("windows-1252"))
        );
    }
}
