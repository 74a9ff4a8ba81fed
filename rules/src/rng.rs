//! SplitMix64 (Steele, Lea and Flood, 2014), the workspace's one random generator: tiny,
//! fast, and the same on every platform, so a seed means the same Zobrist keys, the same
//! self-play and random games, the same samples everywhere.

/// The SplitMix64 generator.
///
/// ```
/// use drafti_rules::SplitMix64;
/// let mut a = SplitMix64::stream(7, 3);
/// let mut b = SplitMix64::stream(7, 3);
/// assert_eq!(a.next_u64(), b.next_u64());
/// assert!(a.below(10) < 10);
/// let u = a.unit();
/// assert!((0.0..1.0).contains(&u));
/// // The reference sequence from state 0 (Vigna's splitmix64.c).
/// assert_eq!(SplitMix64::new(0).next_u64(), 0xE220_A839_7B1D_CDAF);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SplitMix64(u64);

impl SplitMix64 {
    /// The generator whose state is `state`.
    pub const fn new(state: u64) -> SplitMix64 {
        SplitMix64(state)
    }

    /// Stream `stream` (a game number, say) of `seed`: independent streams of one seed,
    /// the first output of the mixed state skipped.
    pub const fn stream(seed: u64, stream: u64) -> SplitMix64 {
        let mut rng = SplitMix64(seed ^ stream.wrapping_mul(0xD1B5_4A32_D192_ED03));
        rng.next_u64();
        rng
    }

    /// The next 64 random bits.
    pub const fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in `0..n` (the high bits, by multiplication; `n` below 2^32).
    pub fn below(&mut self, n: usize) -> usize {
        (((self.next_u64() >> 32) * n as u64) >> 32) as usize
    }

    /// Uniform in `[0, 1)`.
    pub fn unit(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }
}
