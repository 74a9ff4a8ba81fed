//! [`MoveText`]: the text of a move as written, held inline.
//!
//! A parser reads millions of moves; building each one's text as a heap string (or as a
//! general small-string type, whose variable-length copy the next load has to wait for) was
//! a fifth of the parse time. Moves are short ASCII words, so this type keeps up to
//! [`INLINE`] bytes in place and is built from the source with whole-word loads.

use std::borrow::Borrow;
use std::fmt;
use std::hash::{Hash, Hasher};
use std::ops::Deref;

/// Bytes held without a heap allocation (a 6-square capture written algebraically, `c3xe5xg7xe5xc3xa5`, needs 17).
pub const INLINE: usize = 22;

/// The text of a move, exactly as written (`c3-d4`, `22x15x8`, `C3:E5`). It derefs to `str`.
///
/// ```
/// use drafti_pdn::MoveText;
/// let text = MoveText::new("c3xe5");
/// assert_eq!(text, "c3xe5");
/// assert_eq!(text.len(), 5);
/// assert_eq!(MoveText::from("a1xc3xe5xg7xe5xc3xa1xc3x").to_string(), "a1xc3xe5xg7xe5xc3xa1xc3x");
/// ```
#[derive(Clone, PartialEq, Eq)]
pub struct MoveText(Repr);

/// A text of at most [`INLINE`] bytes is always `Inline` (so derived equality is equality
/// of the texts); the bytes after `len` are zero.
#[derive(Clone, PartialEq, Eq)]
enum Repr {
    Inline { len: u8, bytes: [u8; INLINE] },
    Heap(Box<str>),
}

impl MoveText {
    /// The text `text`.
    pub fn new(text: &str) -> MoveText {
        if text.len() <= INLINE {
            let mut bytes = [0; INLINE];
            bytes[..text.len()].copy_from_slice(text.as_bytes());
            MoveText(Repr::Inline {
                len: text.len() as u8,
                bytes,
            })
        } else {
            MoveText(Repr::Heap(text.into()))
        }
    }

    /// The first `len` bytes of `source`, which the caller has checked are ASCII.
    ///
    /// The usual short move is copied with one 16-byte load and a mask (no variable-length
    /// copy); `None` if `source[..len]` is not ASCII.
    #[inline(always)]
    pub(crate) fn from_ascii(source: &[u8], len: usize) -> Option<MoveText> {
        const WORD: usize = 16;
        let text = source.get(..len)?;
        if !text.is_ascii() {
            return None;
        }
        if len < WORD {
            if let Some(word) = source.first_chunk::<WORD>() {
                let keep = (1u128 << (8 * len)) - 1;
                let word = u128::from_le_bytes(*word) & keep;
                let mut bytes = [0; INLINE];
                bytes[..WORD].copy_from_slice(&word.to_le_bytes());
                return Some(MoveText(Repr::Inline {
                    len: len as u8,
                    bytes,
                }));
            }
        }
        // ASCII is UTF-8.
        std::str::from_utf8(text).ok().map(MoveText::new)
    }

    /// The text.
    pub fn as_str(&self) -> &str {
        match &self.0 {
            // Built from a `str` (or checked ASCII) cut at its end: always valid.
            Repr::Inline { len, bytes } => {
                std::str::from_utf8(&bytes[..usize::from(*len)]).unwrap_or_default()
            }
            Repr::Heap(text) => text,
        }
    }
}

impl Default for MoveText {
    fn default() -> Self {
        MoveText::new("")
    }
}

impl Deref for MoveText {
    type Target = str;

    fn deref(&self) -> &str {
        self.as_str()
    }
}

impl AsRef<str> for MoveText {
    fn as_ref(&self) -> &str {
        self.as_str()
    }
}

impl Borrow<str> for MoveText {
    fn borrow(&self) -> &str {
        self.as_str()
    }
}

impl Hash for MoveText {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.as_str().hash(state);
    }
}

impl From<&str> for MoveText {
    fn from(text: &str) -> Self {
        MoveText::new(text)
    }
}

impl From<String> for MoveText {
    fn from(text: String) -> Self {
        MoveText::new(&text)
    }
}

impl From<MoveText> for String {
    fn from(text: MoveText) -> Self {
        text.as_str().to_string()
    }
}

impl PartialEq<str> for MoveText {
    fn eq(&self, other: &str) -> bool {
        self.as_str() == other
    }
}

impl PartialEq<&str> for MoveText {
    fn eq(&self, other: &&str) -> bool {
        self.as_str() == *other
    }
}

impl PartialEq<String> for MoveText {
    fn eq(&self, other: &String) -> bool {
        self.as_str() == other
    }
}

impl fmt::Display for MoveText {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl fmt::Debug for MoveText {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self.as_str(), f)
    }
}

impl fmt::Write for MoveText {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        let mut text = String::with_capacity(self.len() + s.len());
        text.push_str(self);
        text.push_str(s);
        *self = MoveText::new(&text);
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn inline_and_heap_texts_compare_by_content() {
        let long = "a1xc3xe5xg7xe5xc3xa1xc3xe5";
        assert_eq!(MoveText::new(long), long);
        assert_eq!(MoveText::new("c3-d4"), MoveText::from("c3-d4".to_string()));
        for len in 0..=INLINE + 2 {
            let text = &"c3xe5xg7xe5xc3xa5xc7xe5xg3"[..len];
            let mut source = text.as_bytes().to_vec();
            source.extend_from_slice(b" d6-e5 2. b2-c3 *");
            let fast = MoveText::from_ascii(&source, len).unwrap();
            assert_eq!(fast, MoveText::new(text), "{len}");
            assert_eq!(fast.as_str(), text);
            // At the very end of the input (no 16 bytes to load).
            assert_eq!(MoveText::from_ascii(text.as_bytes(), len).unwrap(), text);
        }
        assert_eq!(MoveText::from_ascii("жc3".as_bytes(), 3), None);
        assert_eq!(MoveText::from_ascii(b"c3", 3), None);
    }

    #[test]
    fn writing_appends() {
        use std::fmt::Write as _;
        let mut text = MoveText::default();
        for _ in 0..10 {
            write!(text, "c3x").unwrap();
        }
        assert_eq!(text.len(), 30);
        assert!(text.ends_with("c3x"));
    }
}
