//! Small encodings of the index file: LEB128 varints, a bounds-checked byte reader, and the
//! bit packing of a game's moves (each move takes as many bits as its position's legal moves
//! need: none for a forced move).

/// Appends `value` as an unsigned LEB128 varint.
#[inline]
pub fn put_varint(out: &mut Vec<u8>, mut value: u64) {
    while value >= 0x80 {
        out.push(value as u8 | 0x80);
        value >>= 7;
    }
    out.push(value as u8);
}

/// Bytes read past their end, or a varint longer than 10 bytes: the data is damaged.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Truncated;

/// Reads little-endian numbers and varints from a slice, never past its end.
#[derive(Clone, Copy, Debug)]
pub struct Reader<'a> {
    data: &'a [u8],
    at: usize,
}

impl<'a> Reader<'a> {
    /// A reader at the start of `data`.
    pub fn new(data: &'a [u8]) -> Reader<'a> {
        Reader { data, at: 0 }
    }

    /// Bytes read so far.
    pub fn position(&self) -> usize {
        self.at
    }

    /// Whether every byte was read.
    pub fn is_empty(&self) -> bool {
        self.at >= self.data.len()
    }

    /// The next `n` bytes.
    #[inline]
    pub fn bytes(&mut self, n: usize) -> Result<&'a [u8], Truncated> {
        let end = self.at.checked_add(n).ok_or(Truncated)?;
        let out = self.data.get(self.at..end).ok_or(Truncated)?;
        self.at = end;
        Ok(out)
    }

    /// Skips `n` bytes.
    #[inline]
    pub fn skip(&mut self, n: usize) -> Result<(), Truncated> {
        self.bytes(n).map(|_| ())
    }

    /// One byte.
    #[inline]
    pub fn u8(&mut self) -> Result<u8, Truncated> {
        let b = *self.data.get(self.at).ok_or(Truncated)?;
        self.at += 1;
        Ok(b)
    }

    /// A little-endian `u16`.
    pub fn u16(&mut self) -> Result<u16, Truncated> {
        Ok(u16::from_le_bytes(
            self.bytes(2)?.try_into().map_err(|_| Truncated)?,
        ))
    }

    /// A little-endian `u32`.
    pub fn u32(&mut self) -> Result<u32, Truncated> {
        Ok(u32::from_le_bytes(
            self.bytes(4)?.try_into().map_err(|_| Truncated)?,
        ))
    }

    /// A little-endian `u64`.
    pub fn u64(&mut self) -> Result<u64, Truncated> {
        Ok(u64::from_le_bytes(
            self.bytes(8)?.try_into().map_err(|_| Truncated)?,
        ))
    }

    /// The bytes of the next `n` varints.
    pub fn varints(&mut self, n: u64) -> Result<&'a [u8], Truncated> {
        let start = self.at;
        for _ in 0..n {
            self.varint()?;
        }
        Ok(&self.data[start..self.at])
    }

    /// An unsigned LEB128 varint of at most 10 bytes.
    #[inline]
    pub fn varint(&mut self) -> Result<u64, Truncated> {
        let mut value = 0u64;
        for shift in (0..70).step_by(7) {
            let b = self.u8()?;
            value |= ((b & 0x7f) as u64).checked_shl(shift).unwrap_or(0);
            if b < 0x80 {
                return Ok(value);
            }
        }
        Err(Truncated)
    }
}

/// The bits a move needs among `legal` moves: 0 for one, 1 for two, 2 for three or four…
#[inline]
pub const fn bits_for(legal: usize) -> u32 {
    if legal <= 1 {
        0
    } else {
        usize::BITS - (legal - 1).leading_zeros()
    }
}

/// Packs codes of variable width, most significant bit first, so that the byte order of two
/// packed games is the order of their bit strings (a game cut short sorts just before the
/// games it is the start of).
#[derive(Default)]
pub struct BitWriter {
    bytes: Vec<u8>,
    bits: u32,
    filled: u32,
}

impl BitWriter {
    /// Appends the low `width` (at most 8) bits of `value`.
    #[inline]
    pub fn put(&mut self, value: u32, width: u32) {
        if width == 0 {
            return;
        }
        self.bits = self.bits << width | (value & ((1 << width) - 1));
        self.filled += width;
        if self.filled >= 8 {
            self.bytes.push((self.bits >> (self.filled - 8)) as u8);
            self.filled -= 8;
            self.bits &= (1 << self.filled) - 1;
        }
    }

    /// The packed bytes (the last one padded with zero bits) and the number of pad bits.
    pub fn finish(mut self) -> (Vec<u8>, u32) {
        if self.filled > 0 {
            self.bytes.push((self.bits << (8 - self.filled)) as u8);
            return (self.bytes, 8 - self.filled);
        }
        (self.bytes, 0)
    }
}

/// Reads codes written by [`BitWriter`].
pub struct BitReader<'a> {
    data: &'a [u8],
    at: usize,
    bits: u32,
    filled: u32,
}

impl<'a> BitReader<'a> {
    /// A reader of `data`.
    pub fn new(data: &'a [u8]) -> BitReader<'a> {
        BitReader {
            data,
            at: 0,
            bits: 0,
            filled: 0,
        }
    }

    /// The next `width` (at most 8) bits, or `None` past the end.
    #[inline]
    pub fn get(&mut self, width: u32) -> Option<u32> {
        if width == 0 {
            return Some(0);
        }
        if self.filled < width {
            let b = *self.data.get(self.at)?;
            self.at += 1;
            self.bits = self.bits << 8 | b as u32;
            self.filled += 8;
        }
        self.filled -= width;
        let value = (self.bits >> self.filled) & ((1 << width) - 1);
        self.bits &= (1 << self.filled) - 1;
        Some(value)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn varints_and_bits_round_trip() {
        let mut out = Vec::new();
        for v in [0, 1, 127, 128, 300, u32::MAX as u64, u64::MAX] {
            put_varint(&mut out, v);
        }
        let mut r = Reader::new(&out);
        for v in [0, 1, 127, 128, 300, u32::MAX as u64, u64::MAX] {
            assert_eq!(r.varint(), Ok(v));
        }
        assert!(r.is_empty());
        assert_eq!(r.varint(), Err(Truncated));
        assert_eq!(Reader::new(&[0xff; 11]).varint(), Err(Truncated));

        assert_eq!([1, 2, 3, 4, 5, 9, 17].map(bits_for), [0, 1, 2, 2, 3, 4, 5]);
        let mut w = BitWriter::default();
        let codes = [(0, 0), (1, 1), (5, 3), (3, 2), (17, 5), (0, 0), (200, 8)];
        for (v, width) in codes {
            w.put(v, width);
        }
        let (bytes, pad) = w.finish();
        assert_eq!((bytes.len(), pad), (3, 5));
        // Most significant bit first: 1, 101, 11, 10001, 11001000.
        assert_eq!(bytes, [0b1101_1110, 0b0011_1001, 0b0000_0000]);
        let mut r = BitReader::new(&bytes);
        for (v, width) in codes {
            assert_eq!(r.get(width), Some(v));
        }
        assert_eq!(r.get(8), None);
    }
}
