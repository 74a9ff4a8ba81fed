//! Archives that are not UTF-8.
//!
//! Russian archives are often in Windows-1251 (or DOS CP866), Western ones in Latin-1. A
//! file is in one encoding, so [`DecodingReader`] decides it once per file, at the first
//! non-ASCII byte, from the next [`DETECTION_WINDOW`] bytes (with chardetng), and hands the
//! parser UTF-8: a UTF-8 file (with or without BOM) passes through untouched; a legacy one is
//! transcoded as it streams, in constant memory.
//!
//! What is left for [`decode_text`]: a file taken as UTF-8 that still holds some invalid
//! bytes further on (files concatenated from different sources). There each tag value or
//! comment is decoded on its own, with a warning: if most bytes ≥ 0x80 stand next to another
//! such byte, the text is written in a non-Latin alphabet (Cyrillic), and of Windows-1251 and
//! CP866 the one that yields more Russian letters wins; otherwise it is Latin-1 (read as
//! Windows-1252, its superset).

use std::borrow::Cow;
use std::io::{self, BufRead, Read};

pub use encoding_rs::Encoding;

/// Bytes from the first non-ASCII byte on that the detector sees before the file's
/// encoding is decided (a hundred games or so of an archive: many names).
pub const DETECTION_WINDOW: usize = 128 << 10;

/// Bytes decoded at a time from a legacy file.
const DECODE_CHUNK: usize = 64 << 10;

/// The encoding called `label` (`latin1`, `cp1251`, `windows-1251`, `utf-8`, `ibm866`…: the
/// WHATWG labels), if there is one.
///
/// ```
/// assert_eq!(drafti_pdn::encoding_for_label("latin1").unwrap().name(), "windows-1252");
/// assert_eq!(drafti_pdn::encoding_for_label("CP1251").unwrap().name(), "windows-1251");
/// assert!(drafti_pdn::encoding_for_label("klingon").is_none());
/// ```
pub fn encoding_for_label(label: &str) -> Option<&'static Encoding> {
    Encoding::for_label(label.trim().as_bytes())
}

/// Called once when a file turns out not to be UTF-8, with the encoding it will be read in.
pub type OnDetected = Box<dyn FnOnce(&'static Encoding) + Send>;

enum Mode {
    /// Only ASCII so far: bytes pass through until the first non-ASCII one decides.
    Undecided,
    /// UTF-8 (or chosen as such): bytes pass through.
    Utf8,
    /// A legacy encoding: bytes are transcoded to UTF-8.
    Legacy(encoding_rs::Decoder),
}

/// A [`BufRead`] that yields a PDN file as UTF-8, whatever single encoding it is in.
///
/// With no encoding given, the file's encoding is detected at its first non-ASCII byte
/// (ASCII reads the same in all of them): a UTF-8 BOM or valid UTF-8 means UTF-8, which passes
/// through unchanged; otherwise chardetng's guess is used for the whole file and `on_detected`
/// is told. With an encoding given, that one is used from the first byte. Memory stays
/// constant: at most [`DETECTION_WINDOW`] bytes are read ahead.
///
/// ```
/// use drafti_pdn::{DecodingReader, GameReader};
/// let latin1 = b"[White \"Jos\xe9 N\xfa\xf1ez\"]\n[Black \"Fran\xe7ois M\xfcller\"]\n1. c3-d4 *\n";
/// let reader = DecodingReader::new(&latin1[..], None, None);
/// let game = GameReader::new(reader).next().unwrap().unwrap();
/// assert_eq!(game.tag("White"), Some("José Núñez"));
/// assert!(game.warnings.is_empty());
/// ```
pub struct DecodingReader<R> {
    inner: R,
    mode: Mode,
    /// Bytes read ahead to decide the encoding, not yet passed on (`ahead[ahead_pos..]`).
    ahead: Vec<u8>,
    ahead_pos: usize,
    /// Decoded UTF-8 not yet consumed (`decoded[decoded_pos..]`), legacy mode only.
    decoded: Vec<u8>,
    decoded_pos: usize,
    /// The decoder has been told the input ended.
    finished: bool,
    /// Undecided mode: bytes at the front of the inner buffer already known to be ASCII.
    ascii_ahead: usize,
    on_detected: Option<OnDetected>,
}

impl<R: BufRead> DecodingReader<R> {
    /// A reader of `inner` in `encoding` (None: detect it), telling `on_detected` which
    /// legacy encoding was detected, if one was.
    pub fn new(
        inner: R,
        encoding: Option<&'static Encoding>,
        on_detected: Option<OnDetected>,
    ) -> Self {
        let mode = match encoding {
            None => Mode::Undecided,
            Some(e) if e == encoding_rs::UTF_8 => Mode::Utf8,
            Some(e) => Mode::Legacy(e.new_decoder_without_bom_handling()),
        };
        DecodingReader {
            inner,
            mode,
            ahead: Vec::new(),
            ahead_pos: 0,
            decoded: Vec::new(),
            decoded_pos: 0,
            finished: false,
            ascii_ahead: 0,
            on_detected,
        }
    }

    /// The encoding the file is read in: None while only ASCII has been read.
    pub fn encoding(&self) -> Option<&'static Encoding> {
        match &self.mode {
            Mode::Undecided => None,
            Mode::Utf8 => Some(encoding_rs::UTF_8),
            Mode::Legacy(d) => Some(d.encoding()),
        }
    }

    /// Reads ahead from the first non-ASCII byte and decides the encoding.
    fn detect(&mut self) -> io::Result<()> {
        let mut at_end = false;
        while self.ahead.len() < DETECTION_WINDOW {
            let buf = self.inner.fill_buf()?;
            if buf.is_empty() {
                at_end = true;
                break;
            }
            let take = buf.len().min(DETECTION_WINDOW - self.ahead.len());
            self.ahead.extend_from_slice(&buf[..take]);
            self.inner.consume(take);
        }
        let encoding = if self.ahead.starts_with(b"\xEF\xBB\xBF") {
            encoding_rs::UTF_8
        } else {
            let mut detector =
                chardetng::EncodingDetector::new(chardetng::Iso2022JpDetection::Deny);
            detector.feed(&self.ahead, at_end);
            detector.guess(None, chardetng::Utf8Detection::Allow)
        };
        if encoding == encoding_rs::UTF_8 {
            self.mode = Mode::Utf8;
        } else {
            self.mode = Mode::Legacy(encoding.new_decoder_without_bom_handling());
            if let Some(tell) = self.on_detected.take() {
                tell(encoding);
            }
        }
        Ok(())
    }

    /// Decodes the next chunk into `decoded` (empty at the end of the input).
    fn decode_more(&mut self) -> io::Result<()> {
        let Mode::Legacy(decoder) = &mut self.mode else {
            unreachable!("decode_more is called in legacy mode only");
        };
        self.decoded.clear();
        self.decoded_pos = 0;
        while self.decoded.is_empty() && !self.finished {
            let from_ahead = self.ahead_pos < self.ahead.len();
            let src: &[u8] = if from_ahead {
                &self.ahead[self.ahead_pos..]
            } else {
                self.inner.fill_buf()?
            };
            let src = &src[..src.len().min(DECODE_CHUNK)];
            let last = src.is_empty();
            let room = decoder
                .max_utf8_buffer_length(src.len())
                .unwrap_or(4 * src.len() + 16);
            self.decoded.resize(room, 0);
            let (_, read, written, _) = decoder.decode_to_utf8(src, &mut self.decoded, last);
            self.decoded.truncate(written);
            if from_ahead {
                self.ahead_pos += read;
                if self.ahead_pos == self.ahead.len() {
                    self.ahead = Vec::new();
                    self.ahead_pos = 0;
                }
            } else {
                self.inner.consume(read);
            }
            self.finished = last;
        }
        Ok(())
    }
}

impl<R: BufRead> Read for DecodingReader<R> {
    fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
        let available = self.fill_buf()?;
        let n = available.len().min(out.len());
        out[..n].copy_from_slice(&available[..n]);
        self.consume(n);
        Ok(n)
    }
}

impl<R: BufRead> BufRead for DecodingReader<R> {
    fn fill_buf(&mut self) -> io::Result<&[u8]> {
        if let Mode::Undecided = self.mode {
            let buf = self.inner.fill_buf()?;
            if self.ascii_ahead == 0 {
                // Scanned once per buffer, not at every call (a caller asks after each line).
                self.ascii_ahead = if buf.is_ascii() {
                    buf.len()
                } else {
                    buf.iter().position(|&b| b >= 0x80).unwrap_or(buf.len())
                };
            }
            let ascii = self.ascii_ahead.min(buf.len());
            if ascii == 0 && !buf.is_empty() {
                self.detect()?;
            } else {
                // Borrowed again: the first borrow cannot outlive the branch above.
                return Ok(&self.inner.fill_buf()?[..ascii]);
            }
        }
        match self.mode {
            Mode::Undecided => unreachable!("decided above"),
            Mode::Utf8 if self.ahead_pos < self.ahead.len() => Ok(&self.ahead[self.ahead_pos..]),
            Mode::Utf8 => self.inner.fill_buf(),
            Mode::Legacy(_) => {
                if self.decoded_pos == self.decoded.len() {
                    self.decode_more()?;
                }
                Ok(&self.decoded[self.decoded_pos..])
            }
        }
    }

    fn consume(&mut self, amount: usize) {
        match self.mode {
            Mode::Undecided => {
                self.ascii_ahead = self.ascii_ahead.saturating_sub(amount);
                self.inner.consume(amount);
            }
            Mode::Utf8 if self.ahead_pos < self.ahead.len() => {
                self.ahead_pos += amount;
                if self.ahead_pos == self.ahead.len() {
                    // Read-ahead passed on: give its memory back.
                    self.ahead = Vec::new();
                    self.ahead_pos = 0;
                }
            }
            Mode::Utf8 => self.inner.consume(amount),
            Mode::Legacy(_) => self.decoded_pos += amount,
        }
    }
}

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
    use crate::GameReader;
    use std::sync::{Arc, Mutex};

    /// An archive of `games` games, each with these players and a Cyrillic or Latin event.
    fn archive(games: usize, white: &str, black: &str, event: &str) -> String {
        (0..games)
            .map(|i| {
                format!(
                    "[Event \"{event} {i}\"]\r\n[White \"{white}\"]\r\n[Black \"{black}\"]\r\n\r\n1. c3-d4 d6-e5 *\r\n\r\n"
                )
            })
            .collect()
    }

    /// Everything `reader` yields, and the encodings it reported as detected.
    fn drain<R: BufRead>(
        inner: R,
        encoding: Option<&'static Encoding>,
    ) -> (Vec<u8>, Vec<&'static str>) {
        let told = Arc::new(Mutex::new(Vec::new()));
        let sink = Arc::clone(&told);
        let tell: OnDetected = Box::new(move |e| sink.lock().unwrap().push(e.name()));
        let mut reader = DecodingReader::new(inner, encoding, Some(tell));
        let mut out = Vec::new();
        reader.read_to_end(&mut out).unwrap();
        let told = told.lock().unwrap().clone();
        (out, told)
    }

    #[test]
    fn a_legacy_file_is_decoded_whole_and_told_once() {
        let cases = [
            (
                encoding_rs::WINDOWS_1252,
                "José Núñez",
                "François Müller",
                "Campeonato de España",
            ),
            (
                encoding_rs::WINDOWS_1251,
                "Абациев Н.",
                "Блиндер Б.",
                "Первенство СССР",
            ),
            (
                encoding_rs::IBM866,
                "Абаулин В.",
                "Миротин Б.",
                "Чемпионат СССР",
            ),
        ];
        for (encoding, white, black, event) in cases {
            let text = archive(40, white, black, event);
            let (bytes, _, _) = encoding.encode(&text);
            // A small inner buffer: the detection window and the decoding cross many reads.
            let inner = io::BufReader::with_capacity(4096, &bytes[..]);
            let (out, told) = drain(inner, None);
            assert_eq!(String::from_utf8(out).unwrap(), text, "{}", encoding.name());
            assert_eq!(told, [encoding.name()]);
            let games: Vec<_> = GameReader::new(DecodingReader::new(&bytes[..], None, None))
                .map(Result::unwrap)
                .collect();
            assert_eq!(games.len(), 40);
            assert!(games.iter().all(|g| g.tag("White") == Some(white)
                && g.tag("Black") == Some(black)
                && g.warnings.is_empty()));
        }
    }

    #[test]
    fn the_decision_waits_for_the_first_non_ascii_byte() {
        // Far more ASCII than the window before the first accented name.
        let mut text = archive(5000, "Juma", "Neema", "Dar");
        assert!(text.len() > 2 * DETECTION_WINDOW);
        text.push_str(&archive(3, "José Núñez", "Zoë", "Málaga"));
        let (bytes, _, _) = encoding_rs::WINDOWS_1252.encode(&text);
        let (out, told) = drain(io::BufReader::with_capacity(1000, &bytes[..]), None);
        assert_eq!(String::from_utf8(out).unwrap(), text);
        assert_eq!(told, ["windows-1252"]);
    }

    #[test]
    fn utf8_with_or_without_bom_passes_through_untouched() {
        let text = archive(30, "Абациев Н.", "José Núñez", "Первенство");
        for bytes in [
            text.clone().into_bytes(),
            [b"\xEF\xBB\xBF", text.as_bytes()].concat(),
        ] {
            let (out, told) = drain(io::BufReader::with_capacity(100, &bytes[..]), None);
            assert_eq!(out, bytes);
            assert!(told.is_empty());
        }
        // A BOM followed by legacy bytes is still UTF-8 (the stray bytes are left to the
        // per-tag fallback), as before.
        let mixed = [&b"\xEF\xBB\xBF[White \"M\xfcller\"]\n"[..], b"1. c3-d4 *\n"].concat();
        let (out, told) = drain(&mixed[..], None);
        assert_eq!(out, mixed);
        assert!(told.is_empty());
    }

    #[test]
    fn a_given_encoding_is_used_from_the_first_byte_and_not_told() {
        let text = archive(5, "Абациев Н.", "Блиндер Б.", "СССР");
        let (cp1251, _, _) = encoding_rs::WINDOWS_1251.encode(&text);
        let (out, told) = drain(&cp1251[..], Some(encoding_rs::WINDOWS_1252));
        let (as_latin1, _, _) = encoding_rs::WINDOWS_1252.decode(&cp1251);
        assert_eq!(String::from_utf8(out).unwrap(), as_latin1);
        assert!(told.is_empty());
        let (out, _) = drain(&cp1251[..], Some(encoding_rs::UTF_8));
        assert_eq!(out, &cp1251[..]);
    }

    #[test]
    fn the_read_ahead_is_bounded_and_given_back() {
        let text = archive(3000, "José Núñez", "Zoë", "Málaga");
        let (bytes, _, _) = encoding_rs::WINDOWS_1252.encode(&text);
        let mut reader = DecodingReader::new(&bytes[..], None, None);
        let mut seen = 0;
        loop {
            let n = reader.fill_buf().unwrap().len();
            if n == 0 {
                break;
            }
            assert!(reader.ahead.capacity() <= DETECTION_WINDOW + 64 * 1024);
            assert!(reader.decoded.capacity() <= 4 * DECODE_CHUNK + 64);
            seen += n;
            reader.consume(n);
        }
        assert_eq!(seen, text.len());
        assert_eq!(reader.ahead.capacity(), 0);
        assert_eq!(reader.encoding(), Some(encoding_rs::WINDOWS_1252));
    }

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
