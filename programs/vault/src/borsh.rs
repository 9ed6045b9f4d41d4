//! Borsh reading for instruction arguments and writing for events, over fixed buffers.

use crate::error::{Error, Result};

/// Reads Borsh values from instruction data; any short read is `InvalidInstructionData`.
pub struct Reader<'a> {
    data: &'a [u8],
    pos: usize,
}

impl<'a> Reader<'a> {
    pub fn new(data: &'a [u8]) -> Self {
        Reader { data, pos: 0 }
    }

    fn bytes(&mut self, n: usize) -> Result<&'a [u8]> {
        let end = self.pos.checked_add(n).ok_or(Error::INVALID_INSTRUCTION_DATA)?;
        if end > self.data.len() {
            return Err(Error::INVALID_INSTRUCTION_DATA);
        }
        let out = &self.data[self.pos..end];
        self.pos = end;
        Ok(out)
    }

    pub fn u8(&mut self) -> Result<u8> {
        Ok(self.bytes(1)?[0])
    }

    pub fn bool(&mut self) -> Result<bool> {
        match self.u8()? {
            0 => Ok(false),
            1 => Ok(true),
            _ => Err(Error::INVALID_INSTRUCTION_DATA),
        }
    }

    pub fn u16(&mut self) -> Result<u16> {
        let b = self.bytes(2)?;
        Ok(b[0] as u16 | (b[1] as u16) << 8)
    }

    pub fn u32(&mut self) -> Result<u32> {
        let b = self.bytes(4)?;
        // SAFETY: `bytes` returned exactly 4 in-bounds bytes; read_unaligned needs no alignment.
        Ok(unsafe { core::ptr::read_unaligned(b.as_ptr() as *const u32) }.to_le())
    }

    pub fn u64(&mut self) -> Result<u64> {
        let b = self.bytes(8)?;
        // SAFETY: `bytes` returned exactly 8 in-bounds bytes; read_unaligned needs no alignment.
        Ok(unsafe { core::ptr::read_unaligned(b.as_ptr() as *const u64) }.to_le())
    }

    pub fn i64(&mut self) -> Result<i64> {
        Ok(self.u64()? as i64)
    }

    /// A Borsh pubkey: 32 bytes, borrowed from the instruction data.
    pub fn pubkey(&mut self) -> Result<&'a [u8; 32]> {
        let b = self.bytes(32)?;
        <&[u8; 32]>::try_from(b).map_err(|_| Error::INVALID_INSTRUCTION_DATA)
    }

    /// A Borsh string's bytes (u32 length prefix); UTF-8 is checked by the caller that keeps it.
    pub fn string(&mut self) -> Result<&'a [u8]> {
        let len = self.u32()? as usize;
        self.bytes(len)
    }

    /// A Borsh `Option<T>`: a 0/1 tag, then the value when 1.
    pub fn option<T>(&mut self, read: impl FnOnce(&mut Self) -> Result<T>) -> Result<Option<T>> {
        if self.bool()? {
            Ok(Some(read(self)?))
        } else {
            Ok(None)
        }
    }

    /// Refuses trailing bytes: every argument was read.
    pub fn finish(self) -> Result<()> {
        if self.pos == self.data.len() {
            Ok(())
        } else {
            Err(Error::INVALID_INSTRUCTION_DATA)
        }
    }
}

/// Writes Borsh values into a fixed buffer (events are small and bounded).
pub struct Writer<const N: usize> {
    buf: [u8; N],
    len: usize,
}

impl<const N: usize> Writer<N> {
    pub fn new(discriminator: &[u8; 8]) -> Self {
        let mut w = Writer { buf: [0; N], len: 0 };
        w.u64(u64::from_le_bytes(*discriminator));
        w
    }

    fn put<const K: usize>(&mut self, bytes: [u8; K]) {
        // Events are sized statically; an overrun is a programming error and aborts.
        let slot: &mut [u8; K] = (&mut self.buf[self.len..self.len + K]).try_into().unwrap_or_else(|_| panic!());
        *slot = bytes;
        self.len += K;
    }

    pub fn u8(&mut self, v: u8) {
        self.put([v]);
    }
    pub fn u16(&mut self, v: u16) {
        self.put(v.to_le_bytes());
    }
    pub fn u32(&mut self, v: u32) {
        self.put(v.to_le_bytes());
    }
    pub fn u64(&mut self, v: u64) {
        self.put(v.to_le_bytes());
    }
    pub fn i64(&mut self, v: i64) {
        self.put(v.to_le_bytes());
    }
    pub fn pubkey(&mut self, v: &[u8; 32]) {
        self.put(*v);
    }

    pub fn bytes(&self) -> &[u8] {
        &self.buf[..self.len]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_borsh_and_refuses_short_or_trailing_data() {
        let data = [5, 0, 0, 0, 0, 0, 0, 0, 1, 7, 0, 2, 0, 0, 0, b'h', b'i', 0];
        let mut r = Reader::new(&data);
        assert_eq!(r.u64(), Ok(5));
        assert_eq!(r.option(|r| r.u16()), Ok(Some(7)));
        assert_eq!(r.string(), Ok(&b"hi"[..]));
        assert_eq!(r.option(|r| r.u64()), Ok(None));
        assert_eq!(r.finish(), Ok(()));

        let mut short = Reader::new(&data[..7]);
        assert_eq!(short.u64(), Err(Error::INVALID_INSTRUCTION_DATA));
        let mut trailing = Reader::new(&data[..9]);
        trailing.u64().unwrap();
        assert_eq!(trailing.finish(), Err(Error::INVALID_INSTRUCTION_DATA));
        assert_eq!(Reader::new(&[2]).bool(), Err(Error::INVALID_INSTRUCTION_DATA));
        assert_eq!(Reader::new(&[255, 255, 255, 255]).string(), Err(Error::INVALID_INSTRUCTION_DATA));
    }

    #[test]
    fn writes_borsh_after_the_discriminator() {
        let mut w = Writer::<32>::new(&[1, 2, 3, 4, 5, 6, 7, 8]);
        w.u16(0x0102);
        w.i64(-1);
        assert_eq!(w.bytes(), &[1, 2, 3, 4, 5, 6, 7, 8, 2, 1, 255, 255, 255, 255, 255, 255, 255, 255]);
    }
}
