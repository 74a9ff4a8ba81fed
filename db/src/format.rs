//! The index file's container: a header, sections written one after the other, and a trailer
//! that says where each section is and holds the checksums.
//!
//! ```text
//! "DRAFTIDX" version:u32 flags:u32            16 bytes
//! sections (any order)                         strings, records, move index, moves,
//!                                              positions, block directory, meta, page CRCs
//! trailer: per section (offset:u64 len:u64 crc:u32), crc of header and trailer:u32, "XDITFARD"
//! ```
//! Small sections (meta, the block directory, the move index, the page CRCs) are checked
//! whole when the file is opened; the large ones are checked a 64 KiB page at a time, the
//! first time a query reads the page. Every number read is bounds-checked: a damaged or
//! foreign file is an [`IndexError`] that names it, never a panic.

use std::fmt;
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

/// The first bytes of an index file.
pub const MAGIC: &[u8; 8] = b"DRAFTIDX";
/// The last bytes.
const END_MAGIC: &[u8; 8] = b"XDITFARD";
/// The format version this build writes and reads.
pub const VERSION: u32 = 3;
/// The size of a checked page of a large section.
pub const PAGE: usize = 64 * 1024;

/// The sections, in the trailer's order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Section {
    /// The identity and settings (JSON).
    Meta = 0,
    /// Player and event names.
    Strings = 1,
    /// The game table.
    Records = 2,
    /// Where every 64th game's moves start.
    MoveIndex = 3,
    /// The packed moves of every game.
    Moves = 4,
    /// The positions and their games, in blocks.
    Positions = 5,
    /// The first key and place of each block of positions.
    BlockDir = 6,
    /// The CRCs of the pages of the paged sections.
    PageCrcs = 7,
    /// Each game's number in the archive, in the order the positions number the games
    /// (bit-packed; empty in a part of a sharded build, whose positions use the archive's).
    GameOrder = 8,
}

/// How many sections there are.
pub const SECTIONS: usize = 9;
/// The paged sections, in the order of their CRC tables in [`Section::PageCrcs`].
pub const PAGED: [Section; 5] = [
    Section::Strings,
    Section::Records,
    Section::Moves,
    Section::Positions,
    Section::GameOrder,
];

const TRAILER: usize = SECTIONS * 20 + 4 + 8;

/// Why an index file cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum IndexError {
    /// The file could not be read or written.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// What failed.
        source: io::Error,
    },
    /// The file does not start like an index.
    #[error("{path}: not a drafti index (made by `drafti index build`)")]
    NotAnIndex {
        /// The file.
        path: PathBuf,
    },
    /// An index of another format version.
    #[error("{path}: index format version {found}; this drafti reads version {VERSION}: rebuild the index")]
    Version {
        /// The file.
        path: PathBuf,
        /// Its version.
        found: u32,
    },
    /// The file is damaged: cut short, a checksum that does not match, a value out of range.
    #[error("{path}: damaged index: {reason}")]
    Damaged {
        /// The file.
        path: PathBuf,
        /// What is wrong.
        reason: String,
    },
}

impl IndexError {
    pub(crate) fn damaged(path: &Path, reason: impl fmt::Display) -> IndexError {
        IndexError::Damaged {
            path: path.to_path_buf(),
            reason: reason.to_string(),
        }
    }

    pub(crate) fn io(path: &Path, source: io::Error) -> IndexError {
        IndexError::Io {
            path: path.to_path_buf(),
            source,
        }
    }
}

/// Writes sections to a file, keeping their places and checksums for the trailer.
pub struct ContainerWriter<W: Write> {
    out: W,
    header: [u8; 16],
    at: u64,
    table: [(u64, u64, u32); SECTIONS],
    page_crcs: Vec<(Section, Vec<u32>)>,
}

/// One section being written.
pub struct SectionWriter<'a, W: Write> {
    parent: &'a mut ContainerWriter<W>,
    section: Section,
    start: u64,
    whole: crc32fast::Hasher,
    page: crc32fast::Hasher,
    in_page: usize,
    pages: Vec<u32>,
}

impl<W: Write> ContainerWriter<W> {
    /// A writer that has written the header to `out`.
    pub fn new(mut out: W, flags: u32) -> io::Result<ContainerWriter<W>> {
        let mut header = [0u8; 16];
        header[..8].copy_from_slice(MAGIC);
        header[8..12].copy_from_slice(&VERSION.to_le_bytes());
        header[12..].copy_from_slice(&flags.to_le_bytes());
        out.write_all(&header)?;
        Ok(ContainerWriter {
            out,
            header,
            at: 16,
            table: [(0, 0, 0); SECTIONS],
            page_crcs: Vec::new(),
        })
    }

    /// Starts `section`; write to it, then [`SectionWriter::finish`] it.
    pub fn section(&mut self, section: Section) -> SectionWriter<'_, W> {
        let start = self.at;
        SectionWriter {
            parent: self,
            section,
            start,
            whole: crc32fast::Hasher::new(),
            page: crc32fast::Hasher::new(),
            in_page: 0,
            pages: Vec::new(),
        }
    }

    /// Writes the page CRCs and the trailer; returns the writer.
    pub fn finish(mut self) -> io::Result<W> {
        let mut crcs = Vec::new();
        for paged in PAGED {
            let list = self
                .page_crcs
                .iter()
                .find(|(s, _)| *s == paged)
                .map(|(_, l)| l.clone())
                .unwrap_or_default();
            crcs.extend_from_slice(&(list.len() as u32).to_le_bytes());
            for c in list {
                crcs.extend_from_slice(&c.to_le_bytes());
            }
        }
        let mut s = self.section(Section::PageCrcs);
        s.write(&crcs)?;
        s.finish()?;
        let mut trailer = Vec::with_capacity(TRAILER);
        for (offset, len, crc) in self.table {
            trailer.extend_from_slice(&offset.to_le_bytes());
            trailer.extend_from_slice(&len.to_le_bytes());
            trailer.extend_from_slice(&crc.to_le_bytes());
        }
        // The trailer's checksum covers the header too.
        let mut h = crc32fast::Hasher::new();
        h.update(&self.header);
        h.update(&trailer);
        trailer.extend_from_slice(&h.finalize().to_le_bytes());
        trailer.extend_from_slice(END_MAGIC);
        self.out.write_all(&trailer)?;
        Ok(self.out)
    }
}

impl<W: Write> SectionWriter<'_, W> {
    /// Appends bytes to the section.
    pub fn write(&mut self, mut bytes: &[u8]) -> io::Result<()> {
        self.parent.out.write_all(bytes)?;
        self.parent.at += bytes.len() as u64;
        self.whole.update(bytes);
        while !bytes.is_empty() {
            let take = (PAGE - self.in_page).min(bytes.len());
            self.page.update(&bytes[..take]);
            self.in_page += take;
            bytes = &bytes[take..];
            if self.in_page == PAGE {
                let done = std::mem::replace(&mut self.page, crc32fast::Hasher::new());
                self.pages.push(done.finalize());
                self.in_page = 0;
            }
        }
        Ok(())
    }

    /// Bytes written to the section so far.
    pub fn len(&self) -> u64 {
        self.parent.at - self.start
    }

    /// Whether nothing was written yet.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Ends the section.
    pub fn finish(mut self) -> io::Result<()> {
        if self.in_page > 0 {
            let done = std::mem::replace(&mut self.page, crc32fast::Hasher::new());
            self.pages.push(done.finalize());
        }
        let len = self.parent.at - self.start;
        let crc = self.whole.clone().finalize();
        self.parent.table[self.section as usize] = (self.start, len, crc);
        if PAGED.contains(&self.section) {
            let pages = std::mem::take(&mut self.pages);
            self.parent.page_crcs.push((self.section, pages));
        }
        Ok(())
    }
}

/// Where the sections of an index are and which of their pages were checked; the bytes are
/// passed to each read (they are the caller's map or buffer).
pub struct Container {
    path: PathBuf,
    /// Flags of the header.
    pub flags: u32,
    table: [(usize, usize); SECTIONS],
    pages: Vec<Vec<u32>>,
    checked: Vec<Vec<AtomicU64>>,
}

impl Container {
    /// Reads the header and trailer of `data` (the file `path`), and checks the small sections.
    pub fn open(path: &Path, data: &[u8]) -> Result<Container, IndexError> {
        if data.len() < 16 || &data[..8] != MAGIC {
            return Err(IndexError::NotAnIndex {
                path: path.to_path_buf(),
            });
        }
        let version = u32::from_le_bytes(data[8..12].try_into().expect("4 bytes"));
        if version != VERSION {
            return Err(IndexError::Version {
                path: path.to_path_buf(),
                found: version,
            });
        }
        let flags = u32::from_le_bytes(data[12..16].try_into().expect("4 bytes"));
        let damaged = |reason: &str| IndexError::damaged(path, reason);
        if data.len() < 16 + TRAILER {
            return Err(damaged("the file is cut short (no trailer)"));
        }
        let trailer = &data[data.len() - TRAILER..];
        if &trailer[TRAILER - 8..] != END_MAGIC {
            return Err(damaged("the file is cut short or has bytes after its end"));
        }
        let stated = u32::from_le_bytes(
            trailer[SECTIONS * 20..SECTIONS * 20 + 4]
                .try_into()
                .expect("4"),
        );
        let mut h = crc32fast::Hasher::new();
        h.update(&data[..16]);
        h.update(&trailer[..SECTIONS * 20]);
        if h.finalize() != stated {
            return Err(damaged("the trailer's checksum does not match"));
        }
        let body_end = (data.len() - TRAILER) as u64;
        let mut table = [(0usize, 0usize); SECTIONS];
        let mut crcs = [0u32; SECTIONS];
        for (i, slot) in table.iter_mut().enumerate() {
            let e = &trailer[i * 20..i * 20 + 20];
            let offset = u64::from_le_bytes(e[..8].try_into().expect("8"));
            let len = u64::from_le_bytes(e[8..16].try_into().expect("8"));
            crcs[i] = u32::from_le_bytes(e[16..20].try_into().expect("4"));
            let end = offset
                .checked_add(len)
                .filter(|&end| offset >= 16 && end <= body_end);
            if end.is_none() {
                return Err(damaged(&format!("section {i} lies outside the file")));
            }
            *slot = (offset as usize, len as usize);
        }
        let mut c = Container {
            path: path.to_path_buf(),
            flags,
            table,
            pages: Vec::new(),
            checked: Vec::new(),
        };
        for s in [
            Section::Meta,
            Section::MoveIndex,
            Section::BlockDir,
            Section::PageCrcs,
        ] {
            if crc32fast::hash(c.raw(data, s)) != crcs[s as usize] {
                return Err(damaged(&format!(
                    "the checksum of section {s:?} does not match"
                )));
            }
        }
        let mut r = crate::bits::Reader::new(c.raw(data, Section::PageCrcs));
        for s in PAGED {
            let n = r
                .u32()
                .map_err(|_| damaged("the page checksums are cut short"))?
                as usize;
            let expected = c.raw(data, s).len().div_ceil(PAGE);
            if n != expected {
                return Err(damaged(&format!(
                    "section {s:?} has {expected} pages but {n} checksums"
                )));
            }
            let mut list = Vec::with_capacity(n);
            for _ in 0..n {
                list.push(
                    r.u32()
                        .map_err(|_| damaged("the page checksums are cut short"))?,
                );
            }
            c.checked
                .push((0..n.div_ceil(64)).map(|_| AtomicU64::new(0)).collect());
            c.pages.push(list);
        }
        Ok(c)
    }

    /// The file's path.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// A section's bytes in `data` (the file's), unchecked (the small sections were checked
    /// by [`open`](Self::open)).
    pub fn raw<'d>(&self, data: &'d [u8], section: Section) -> &'d [u8] {
        let (offset, len) = self.table[section as usize];
        &data[offset..offset + len]
    }

    /// The bytes `start..start + len` of a section, each page of a paged section checked once.
    pub fn read<'d>(
        &self,
        data: &'d [u8],
        section: Section,
        start: usize,
        len: usize,
    ) -> Result<&'d [u8], IndexError> {
        let whole = self.raw(data, section);
        let end = start
            .checked_add(len)
            .filter(|&e| e <= whole.len())
            .ok_or_else(|| {
                IndexError::damaged(
                    &self.path,
                    format!("a read past the end of section {section:?}"),
                )
            })?;
        let Some(k) = PAGED.iter().position(|&s| s == section) else {
            return Ok(&whole[start..end]);
        };
        if len > 0 {
            for page in start / PAGE..=(end - 1) / PAGE {
                let (word, bit) = (page / 64, 1u64 << (page % 64));
                if self.checked[k][word].load(Ordering::Relaxed) & bit != 0 {
                    continue;
                }
                let bytes = &whole[page * PAGE..((page + 1) * PAGE).min(whole.len())];
                if crc32fast::hash(bytes) != self.pages[k][page] {
                    return Err(IndexError::damaged(
                        &self.path,
                        format!(
                            "the checksum of page {page} of section {section:?} does not match"
                        ),
                    ));
                }
                self.checked[k][word].fetch_or(bit, Ordering::Relaxed);
            }
        }
        Ok(&whole[start..end])
    }

    /// Checks every page of every paged section.
    pub fn verify_all(&self, data: &[u8]) -> Result<(), IndexError> {
        for s in PAGED {
            self.read(data, s, 0, self.raw(data, s).len())?;
        }
        Ok(())
    }
}
