//! A deterministic generator for the host tests (xorshift64*: no crates), shared by math and queue.

pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    /// Values of every magnitude, including the edges.
    pub fn any(&mut self) -> u64 {
        let bits = self.next() % 65;
        let v = self.next();
        match self.next() % 8 {
            0 => 0,
            1 => u64::MAX,
            2 => 1,
            _ if bits == 64 => v,
            _ => v & ((1u64 << bits) - 1),
        }
    }

    pub fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}
