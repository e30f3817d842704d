//! The allocator of deckhand's binaries and benchmarks: mimalloc, asked
//! the cheapest way for what it can give directly.
//!
//! Lua allocates and frees many small blocks, each through Rust's global
//! allocator with a 16-byte alignment. mimalloc's own Rust allocator sends
//! every such request down its aligned path, which for some sizes falls
//! back to a slower general one. Every block mimalloc hands out for more
//! than 8 bytes is already 16-byte aligned (its size classes are multiples
//! of 16 bytes from there), so those requests go to its plain `mi_malloc`
//! and `mi_realloc`; only larger alignments take the aligned path.

use libmimalloc_sys as mi;
use std::alloc::{GlobalAlloc, Layout};
use std::ffi::c_void;

/// The global allocator (`#[global_allocator] static A: Allocator = Allocator;`).
pub struct Allocator;

/// The alignment every mimalloc block of more than 8 bytes has.
const PLAIN_ALIGN: usize = 16;

/// Whether a plain allocation of `size` bytes is aligned to `align`.
fn plain(size: usize, align: usize) -> bool {
    align <= 8 || (align <= PLAIN_ALIGN && size > 8)
}

// SAFETY: every block comes from mimalloc and goes back to it; a block is
// aligned as asked (see `plain`).
unsafe impl GlobalAlloc for Allocator {
    #[inline]
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        if plain(layout.size(), layout.align()) {
            mi::mi_malloc(layout.size()) as *mut u8
        } else {
            mi::mi_malloc_aligned(layout.size(), layout.align()) as *mut u8
        }
    }

    #[inline]
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        if plain(layout.size(), layout.align()) {
            mi::mi_zalloc(layout.size()) as *mut u8
        } else {
            mi::mi_zalloc_aligned(layout.size(), layout.align()) as *mut u8
        }
    }

    #[inline]
    unsafe fn dealloc(&self, ptr: *mut u8, _layout: Layout) {
        mi::mi_free(ptr as *mut c_void);
    }

    #[inline]
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        if plain(new_size, layout.align()) {
            mi::mi_realloc(ptr as *mut c_void, new_size) as *mut u8
        } else {
            mi::mi_realloc_aligned(ptr as *mut c_void, new_size, layout.align()) as *mut u8
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blocks_are_aligned_as_asked_at_every_size() {
        let a = Allocator;
        for align in [1, 2, 4, 8, 16, 32, 64] {
            for size in 1..=600 {
                let layout = Layout::from_size_align(size, align).expect("layout");
                // SAFETY: a non-zero size; each block is freed once.
                unsafe {
                    let p = a.alloc(layout);
                    assert!(
                        !p.is_null() && (p as usize).is_multiple_of(align),
                        "{size} by {align}"
                    );
                    let q = a.realloc(p, layout, size * 3);
                    assert!(
                        !q.is_null() && (q as usize).is_multiple_of(align),
                        "{size}*3 by {align}"
                    );
                    a.dealloc(q, Layout::from_size_align(size * 3, align).expect("layout"));
                }
            }
        }
    }
}
