//! The file of one signature's table: a 64-byte header, then one byte per index.
//!
//! ```text
//! offset  size  field
//!  0       8    magic "DRAFTEGT"
//!  8       4    format version (2; 1 is read for Czech and Russian, refused for Tanzanian:
//!                its values are without law 3)
//! 12       1    variant: 0 Tanzanian, 1 Czech, 2 Russian
//! 13       1    draw laws adjudicated (1) or not (0)
//! 14       1    the count of law 2 (12)
//! 15       1    layers: 12 for Tanzanian three kings against one (one per lone-king count), else 1
//! 16       4    signature: men and kings of the side to move, then of the other side
//! 20       2    the longest distance in the table (plies)
//! 22       2    reserved (0)
//! 24       8    entries (layers × indices per layer) = the payload's length in bytes
//! 32      24    wins, draws, losses (positions, u64 each; indices that are no position excluded)
//! 56       4    reserved (0)
//! 60       4    CRC-32 (IEEE) of bytes 0–59 and the payload
//! 64       …    payload: one byte per index, layer by layer
//! ```
//!
//! All numbers little-endian. A payload byte is 0 for a draw (and for an index that is no
//! position), `d + 1` for a result `d` plies away: `d` odd is a win for the side to move (its
//! move ends the game at ply `d`), `d` even a loss (0: no legal move now). So one byte holds
//! win/draw/loss and the distance, up to 253 plies.

use super::index::Signature;
use super::{EgtbError, Value};
use drafti_rules::{DrawLaws, Variant};
use memmap2::Mmap;
use std::fs::File;
use std::io::Write;
use std::path::{Path, PathBuf};

pub(crate) const MAGIC: &[u8; 8] = b"DRAFTEGT";
/// 2: Tanzanian tables hold law 3's claim. Version 1 is read for Czech and Russian (the
/// same values) and refused for Tanzanian (built without law 3).
pub(crate) const VERSION: u32 = 2;
pub(crate) const HEADER_LEN: usize = 64;
/// The file name extension.
pub const EXTENSION: &str = "egtb";
/// The longest distance a byte holds.
pub(crate) const MAX_DISTANCE: u32 = 253;

/// The byte of a value.
#[inline]
pub(crate) const fn encode(value: Value) -> u8 {
    match value {
        Value::Draw => 0,
        Value::Win(d) | Value::Loss(d) => (d + 1) as u8,
    }
}

/// The value of a byte (255 is no value).
#[inline]
pub(crate) const fn decode(byte: u8) -> Option<Value> {
    match byte {
        0 => Some(Value::Draw),
        255 => None,
        b => {
            let d = (b - 1) as u32;
            Some(if d % 2 == 1 {
                Value::Win(d)
            } else {
                Value::Loss(d)
            })
        }
    }
}

pub(crate) fn variant_code(variant: Variant) -> u8 {
    match variant {
        Variant::Tanzanian => 0,
        Variant::Czech => 1,
        Variant::Russian => 2,
        Variant::TzDraft => 3,
    }
}

/// What a table's header says.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Header {
    /// The rules the table was built under.
    pub variant: Variant,
    /// Whether the draw laws were adjudicated, and law 2's move count.
    pub laws: DrawLaws,
    /// Layers of indices: 12 for Tanzanian three kings against one (one per lone-king move count), else 1.
    pub layers: u32,
    /// The material: men and kings of the side to move, then of the other side.
    pub signature: Signature,
    /// The longest distance to a result in the table, in plies.
    pub max_distance: u32,
    /// Bytes of the payload: layers × indices per layer.
    pub entries: u64,
    /// Positions the side to move wins (indices that are no position left out).
    pub wins: u64,
    /// Positions that are drawn.
    pub draws: u64,
    /// Positions the side to move loses.
    pub losses: u64,
}

impl Header {
    fn to_bytes(self) -> [u8; HEADER_LEN] {
        let mut h = [0u8; HEADER_LEN];
        h[0..8].copy_from_slice(MAGIC);
        h[8..12].copy_from_slice(&VERSION.to_le_bytes());
        h[12] = variant_code(self.variant);
        h[13] = u8::from(self.laws.enabled);
        h[14] = self.laws.king_count.min(255) as u8;
        h[15] = self.layers as u8;
        let s = self.signature;
        h[16..20].copy_from_slice(&[s.white_men, s.white_kings, s.black_men, s.black_kings]);
        h[20..22].copy_from_slice(&(self.max_distance as u16).to_le_bytes());
        h[24..32].copy_from_slice(&self.entries.to_le_bytes());
        h[32..40].copy_from_slice(&self.wins.to_le_bytes());
        h[40..48].copy_from_slice(&self.draws.to_le_bytes());
        h[48..56].copy_from_slice(&self.losses.to_le_bytes());
        h
    }

    /// The header at the start of a table file's bytes `h` (of the file `path`, which errors
    /// name), every field checked before it is used: magic, version, variant, laws, layers,
    /// signature, longest distance, entries against the signature, counts, reserved bytes.
    /// (The checksum needs the payload: `TableFile::open` checks it, before the header.)
    pub fn from_bytes(h: &[u8], path: &Path) -> Result<Header, EgtbError> {
        let corrupt = |reason: String| EgtbError::Corrupt {
            path: path.to_path_buf(),
            reason,
        };
        if h.len() < HEADER_LEN {
            return Err(corrupt(format!(
                "{} bytes, shorter than the {HEADER_LEN}-byte header",
                h.len()
            )));
        }
        if &h[0..8] != MAGIC {
            return Err(corrupt("not a drafti endgame table (bad magic)".into()));
        }
        let u64_at = |i: usize| u64::from_le_bytes(h[i..i + 8].try_into().expect("8 bytes"));
        let version = u32::from_le_bytes(h[8..12].try_into().expect("4 bytes"));
        if version != VERSION && version != 1 {
            return Err(corrupt(format!(
                "format version {version}, this drafti reads {VERSION}"
            )));
        }
        let variant = match h[12] {
            0 => Variant::Tanzanian,
            1 => Variant::Czech,
            2 => Variant::Russian,
            3 => Variant::TzDraft,
            v => return Err(corrupt(format!("unknown variant code {v}"))),
        };
        if version == 1 && variant == Variant::Tanzanian {
            return Err(EgtbError::WrongRules {
                path: path.to_path_buf(),
                reason: format!(
                    "a Tanzanian table of format version 1, built without law 3 (this drafti \
                     reads version {VERSION}): remove the Tanzanian tables and build them again"
                ),
            });
        }
        let enabled = match h[13] {
            0 => false,
            1 => true,
            v => return Err(corrupt(format!("draw-law flag {v}, not 0 or 1"))),
        };
        if h[14] == 0 {
            return Err(corrupt("law 2's count is 0".into()));
        }
        let laws = DrawLaws {
            enabled,
            king_count: u32::from(h[14]),
        };
        let signature = Signature {
            white_men: h[16],
            white_kings: h[17],
            black_men: h[18],
            black_kings: h[19],
        };
        // Each count on its own first: their sum must not wrap.
        let counts = &h[16..20];
        let pieces: u32 = counts.iter().map(|&c| u32::from(c)).sum();
        if pieces > super::index::MAX_PIECES || counts[0..2] == [0, 0] || counts[2..4] == [0, 0] {
            return Err(corrupt(format!(
                "impossible signature (men and kings {counts:?}: each side needs a piece, at \
                 most {} pieces in all)",
                super::index::MAX_PIECES
            )));
        }
        let layers = u32::from(h[15]);
        let expected_layers = super::build::layers(laws, signature);
        if layers != expected_layers {
            return Err(corrupt(format!(
                "{layers} layers, the signature {signature} has {expected_layers}"
            )));
        }
        let max_distance = u32::from(u16::from_le_bytes([h[20], h[21]]));
        if max_distance > MAX_DISTANCE {
            return Err(corrupt(format!(
                "longest distance {max_distance} plies, the format holds at most {MAX_DISTANCE}"
            )));
        }
        let entries = u64_at(24);
        let per_layer = signature.positions();
        if entries != per_layer * u64::from(layers) {
            return Err(corrupt(format!(
                "header gives {entries} entries in {layers} layers, the signature {signature} \
                 has {per_layer} a layer"
            )));
        }
        let (wins, draws, losses) = (u64_at(32), u64_at(40), u64_at(48));
        let counted = wins
            .checked_add(draws)
            .and_then(|n| n.checked_add(losses))
            .filter(|&n| n <= entries);
        if counted.is_none() {
            return Err(corrupt(format!(
                "{wins} wins, {draws} draws and {losses} losses in {entries} entries"
            )));
        }
        if h[22..24] != [0, 0] || h[56..60] != [0, 0, 0, 0] {
            return Err(corrupt("reserved header bytes are not 0".into()));
        }
        Ok(Header {
            variant,
            laws,
            layers,
            signature,
            max_distance,
            entries,
            wins,
            draws,
            losses,
        })
    }
}

/// The file name of a signature's table: `KKMvK.egtb`.
pub fn file_name(signature: Signature) -> String {
    format!("{}.{EXTENSION}", signature.name())
}

/// The CRC-32 of a file's header (without its checksum field) and payload.
fn checksum(header: &[u8], payload: &[u8]) -> u32 {
    let mut hasher = crc32fast::Hasher::new();
    hasher.update(&header[..60]);
    hasher.update(payload);
    hasher.finalize()
}

/// Writes a table to `path` through a temporary file renamed into place, so an interrupted
/// write never leaves a file that looks finished.
pub(crate) fn write(path: &Path, header: Header, payload: &[u8]) -> Result<(), EgtbError> {
    let io = |source| EgtbError::Io {
        path: path.to_path_buf(),
        source,
    };
    let mut bytes = header.to_bytes();
    let crc = checksum(&bytes, payload);
    bytes[60..64].copy_from_slice(&crc.to_le_bytes());
    let tmp = temporary_path(path);
    let mut file = std::io::BufWriter::new(File::create(&tmp).map_err(io)?);
    file.write_all(&bytes).map_err(io)?;
    file.write_all(payload).map_err(io)?;
    // Synced and closed (the temporary `File` dropped with the statement) before the rename.
    file.into_inner()
        .map_err(|e| io(e.into_error()))?
        .sync_all()
        .map_err(io)?;
    std::fs::rename(&tmp, path).map_err(io)
}

/// Where a table is written before it is renamed into place.
pub(crate) fn temporary_path(path: &Path) -> PathBuf {
    let mut name = path.file_name().unwrap_or_default().to_os_string();
    name.push(".tmp");
    path.with_file_name(name)
}

/// Tables up to this size are read into memory; bigger ones are memory-mapped. Every table
/// of at most 5 pieces fits (the largest is 9.1 MiB, a variant's 85 are 145 MiB), so the
/// sets most people build cannot be broken under a running program by a file written over
/// in place (a mapped file cut short faults, SIGBUS); reading them costs no more than the
/// checksum, which reads every byte anyway. Six-piece tables (up to 123 MiB each, 2.4 GiB a
/// variant) stay mapped, shared through the page cache rather than copied into each process.
pub const LOAD_LIMIT: u64 = 16 << 20;

/// A table file's bytes: in memory, or mapped.
enum Bytes {
    Loaded(Vec<u8>),
    Mapped(Mmap),
}

/// A table file read or mapped into memory (see [`LOAD_LIMIT`]), its header and checksum
/// checked.
pub(crate) struct TableFile {
    pub header: Header,
    pub path: PathBuf,
    bytes: Bytes,
}

/// What a file that is not a regular file is, for the error.
fn kind_of(kind: std::fs::FileType) -> &'static str {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if kind.is_fifo() {
            return "a FIFO";
        }
        if kind.is_char_device() || kind.is_block_device() {
            return "a device";
        }
        if kind.is_socket() {
            return "a socket";
        }
    }
    if kind.is_dir() {
        "a folder"
    } else {
        "not a regular file"
    }
}

impl TableFile {
    /// Opens and checks `path`: a regular file (looked at before it is opened, so a FIFO
    /// cannot block the open), header, length, checksum.
    pub fn open(path: &Path) -> Result<TableFile, EgtbError> {
        let io = |source| EgtbError::Io {
            path: path.to_path_buf(),
            source,
        };
        let not_a_file = |kind| EgtbError::NotAFile {
            path: path.to_path_buf(),
            kind: kind_of(kind),
        };
        let kind = std::fs::metadata(path).map_err(io)?.file_type();
        if !kind.is_file() {
            return Err(not_a_file(kind));
        }
        let mut file = File::open(path).map_err(io)?;
        // Replaced between the two looks: still only a regular file is read.
        let meta = file.metadata().map_err(io)?;
        if !meta.file_type().is_file() {
            return Err(not_a_file(meta.file_type()));
        }
        let bytes = if meta.len() <= LOAD_LIMIT {
            let mut bytes = Vec::with_capacity(meta.len() as usize);
            std::io::Read::read_to_end(&mut file, &mut bytes).map_err(io)?;
            Bytes::Loaded(bytes)
        } else {
            // SAFETY: the map is read-only and drafti writes tables to a temporary file and
            // renames it into place, never in place; a file cut short under us by another
            // program faults (SIGBUS), as reading any mapped file does: the README says so.
            let map = unsafe { Mmap::map(&file) }.map_err(io)?;
            #[cfg(unix)]
            let _ = map.advise(memmap2::Advice::Random);
            Bytes::Mapped(map)
        };
        let data: &[u8] = match &bytes {
            Bytes::Loaded(v) => v,
            Bytes::Mapped(m) => m,
        };
        let corrupt = |reason: String| EgtbError::Corrupt {
            path: path.to_path_buf(),
            reason,
        };
        // The checksum first: no field of a damaged header is used, not even to say how
        // long the file should be.
        if data.len() >= HEADER_LEN && &data[0..8] == MAGIC {
            let stored = u32::from_le_bytes(data[60..64].try_into().expect("4 bytes"));
            let actual = checksum(&data[..HEADER_LEN], &data[HEADER_LEN..]);
            if stored != actual {
                return Err(corrupt(format!(
                    "checksum mismatch (stored {stored:08x}, computed {actual:08x}): the file \
                     is damaged or cut short"
                )));
            }
        }
        let header = Header::from_bytes(data, path)?;
        let expected_len = HEADER_LEN as u64 + header.entries;
        if data.len() as u64 != expected_len {
            return Err(corrupt(format!(
                "{} bytes, expected {expected_len} (truncated or padded)",
                data.len()
            )));
        }
        Ok(TableFile {
            header,
            path: path.to_path_buf(),
            bytes,
        })
    }

    /// The payload: one byte per index.
    #[inline]
    pub fn payload(&self) -> &[u8] {
        match &self.bytes {
            Bytes::Loaded(v) => &v[HEADER_LEN..],
            Bytes::Mapped(m) => &m[HEADER_LEN..],
        }
    }

    /// Whether the file is mapped rather than read into memory ([`LOAD_LIMIT`]).
    #[cfg(test)]
    pub fn is_mapped(&self) -> bool {
        matches!(self.bytes, Bytes::Mapped(_))
    }
}
