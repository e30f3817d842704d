//! The trace file of a simulation played on several threads: each batch of
//! games hands over its records when it finishes, and they are written in
//! the order of the games as soon as every earlier batch is written, so
//! that a long run holds only the batches that finished early, not the
//! whole trace, in memory.

use std::collections::BTreeMap;
use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::Path;
use std::sync::Mutex;

/// Batches numbered 0, 1, 2 ... written in that order; after a failed
/// batch (written up to its failing step) nothing more is.
pub struct TraceFile {
    inner: Mutex<Inner>,
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

impl TraceFile {
    pub fn create(path: &Path) -> std::io::Result<TraceFile> {
        Ok(TraceFile {
            inner: Mutex::new(Inner {
                out: BufWriter::new(File::create(path)?),
                next: 0,
                waiting: BTreeMap::new(),
                closed: false,
                error: None,
            }),
        })
    }

    /// Hand over batch `k`'s records; `failed`: the batch stopped at an error.
    pub fn put(&self, k: usize, records: Vec<u8>, failed: bool) {
        let mut t = self.inner.lock().unwrap_or_else(|p| p.into_inner());
        if t.closed {
            return;
        }
        t.waiting.insert(k, (records, failed));
        loop {
            let next = t.next;
            let Some((records, failed)) = t.waiting.remove(&next) else {
                break;
            };
            if let Err(e) = t.out.write_all(&records) {
                t.error = Some(e);
                t.closed = true;
            }
            t.next += 1;
            if failed {
                t.closed = true;
            }
            if t.closed {
                t.waiting.clear();
                break;
            }
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

#[cfg(test)]
mod tests {
    use super::*;

    fn written(batches: &[(usize, &str, bool)]) -> String {
        let dir = tempfile::tempdir().expect("tmp");
        let path = dir.path().join("t.jsonl");
        let f = TraceFile::create(&path).expect("create");
        for &(k, text, failed) in batches {
            f.put(k, text.as_bytes().to_vec(), failed);
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
