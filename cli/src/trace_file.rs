//! The trace file of a simulation played on several threads: each batch of
//! games hands over its records when it finishes, and they are written in
//! the order of the games as soon as every earlier batch is written, so
//! that a long run holds only the batches that finished early, not the
//! whole trace, in memory.
//!
//! A file whose name ends in `.gz` is gzipped: each batch is compressed on
//! its own worker thread into one gzip member, and the members are written
//! one after the other. A file of several members is one gzip file
//! (`zcat`, `gzip -d`, Python's `gzip` and flate2's `MultiGzDecoder` read
//! it whole).

use std::collections::BTreeMap;
use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::Path;
use std::sync::Mutex;

/// Batches numbered 0, 1, 2 ... written in that order; after a failed
/// batch (written up to its failing step) nothing more is.
pub struct TraceFile {
    inner: Mutex<Inner>,
    gzip: bool,
}

struct Inner {
    out: BufWriter<File>,
    /// The batch to write next.
    next: usize,
    /// Finished batches waiting for an earlier one: records, and whether
    /// the batch stopped at a failure.
    waiting: BTreeMap<usize, (Vec<u8>, bool)>,
    /// A failed batch or a write error closed the file.
    closed: bool,
    error: Option<std::io::Error>,
}

impl Inner {
    /// Write the next batch.
    fn write(&mut self, records: &[u8], failed: bool) {
        if let Err(e) = self.out.write_all(records) {
            self.error = Some(e);
            self.closed = true;
        }
        self.next += 1;
        if failed {
            self.closed = true;
        }
    }
}

impl TraceFile {
    /// Create (or truncate) the file at `path`; gzipped when its name ends
    /// in `.gz`.
    pub fn create(path: &Path) -> std::io::Result<TraceFile> {
        let gzip = path.extension().is_some_and(|e| e == "gz");
        Ok(TraceFile {
            gzip,
            inner: Mutex::new(Inner {
                out: BufWriter::new(File::create(path)?),
                next: 0,
                waiting: BTreeMap::new(),
                closed: false,
                error: None,
            }),
        })
    }

    /// Hand over batch `k`'s records; `failed`: the batch stopped at an
    /// error. `records` is left empty, with its capacity, for the caller's
    /// next batch: a batch written at once (the next in order) is written
    /// from it, a batch that must wait for an earlier one is kept.
    pub fn put(&self, k: usize, records: &mut Vec<u8>, failed: bool) {
        // Compressed before taking the lock, on the caller's thread.
        let compressed = if self.gzip {
            match gzip(records) {
                Ok(bytes) => Some(bytes),
                Err(e) => {
                    let mut t = self.inner.lock().unwrap_or_else(|p| p.into_inner());
                    t.error.get_or_insert(e);
                    t.closed = true;
                    return;
                }
            }
        } else {
            None
        };
        let mut t = self.inner.lock().unwrap_or_else(|p| p.into_inner());
        if t.closed {
            records.clear();
            return;
        }
        if t.next == k {
            // The next batch in order: written from the caller's buffer.
            t.write(compressed.as_deref().unwrap_or(records), failed);
            records.clear();
        } else {
            let kept = compressed.unwrap_or_else(|| std::mem::take(records));
            records.clear();
            t.waiting.insert(k, (kept, failed));
        }
        // Then every waiting batch that is now next.
        while !t.closed {
            let next = t.next;
            let Some((records, failed)) = t.waiting.remove(&next) else {
                break;
            };
            t.write(&records, failed);
        }
        if t.closed {
            t.waiting.clear();
        }
    }

    /// Flush the file; the first write error, if any.
    pub fn finish(self) -> std::io::Result<()> {
        let mut t = self.inner.into_inner().unwrap_or_else(|p| p.into_inner());
        if let Some(e) = t.error.take() {
            return Err(e);
        }
        t.out.flush()
    }
}

/// `bytes` as one gzip member. The fast level: a simulation writes tens of
/// megabytes a second, and traces compress well at any level.
fn gzip(bytes: &[u8]) -> std::io::Result<Vec<u8>> {
    use flate2::{write::GzEncoder, Compression};
    let mut enc = GzEncoder::new(Vec::with_capacity(bytes.len() / 6), Compression::fast());
    enc.write_all(bytes)?;
    enc.finish()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn written(batches: &[(usize, &str, bool)]) -> String {
        let dir = tempfile::tempdir().expect("tmp");
        let path = dir.path().join("t.jsonl");
        let f = TraceFile::create(&path).expect("create");
        for &(k, text, failed) in batches {
            f.put(k, &mut text.as_bytes().to_vec(), failed);
        }
        f.finish().expect("finish");
        std::fs::read_to_string(&path).expect("read")
    }

    #[test]
    fn batches_are_written_in_order_whatever_order_they_finish_in() {
        assert_eq!(
            written(&[
                (2, "c", false),
                (0, "a", false),
                (3, "d", false),
                (1, "b", false)
            ]),
            "abcd"
        );
    }

    #[test]
    fn the_callers_buffer_comes_back_empty_whether_written_or_kept() {
        for gzip in [false, true] {
            let dir = tempfile::tempdir().expect("tmp");
            let path = dir.path().join(if gzip { "t.jsonl.gz" } else { "t.jsonl" });
            let f = TraceFile::create(&path).expect("create");
            let mut buffer = b"later\n".to_vec();
            f.put(1, &mut buffer, false);
            assert!(buffer.is_empty(), "kept for later (gzip: {gzip})");
            buffer.extend_from_slice(b"first\n");
            f.put(0, &mut buffer, false);
            assert!(buffer.is_empty(), "written at once (gzip: {gzip})");
        }
    }

    #[test]
    fn a_gz_file_is_gzipped_and_reads_back_whole() {
        use std::io::Read;
        let dir = tempfile::tempdir().expect("tmp");
        let path = dir.path().join("t.jsonl.gz");
        let f = TraceFile::create(&path).expect("create");
        f.put(1, &mut b"second\n".to_vec(), false);
        f.put(0, &mut b"first\n".to_vec(), false);
        f.finish().expect("finish");
        let bytes = std::fs::read(&path).expect("read");
        assert_eq!(&bytes[..2], &[0x1f, 0x8b], "a gzip file");
        let mut text = String::new();
        flate2::read::MultiGzDecoder::new(&bytes[..])
            .read_to_string(&mut text)
            .expect("gunzip");
        assert_eq!(text, "first\nsecond\n");
    }

    #[test]
    fn nothing_after_a_failed_batch_is_written() {
        // Batch 1 failed: batches 0 and 1 are written, 2 and 3 are not,
        // whether they finished before the failure was written or after.
        assert_eq!(
            written(&[
                (3, "d", false),
                (1, "b!", true),
                (0, "a", false),
                (2, "c", false)
            ]),
            "ab!"
        );
    }
}
