//! `SearchControl`: what the protocol thread uses to steer a running search (stop, ponderhit),
//! answered within a millisecond or so because every search thread polls it.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Mutex;
use std::time::Instant;

/// Shared between the protocol loop and the search threads.
#[derive(Debug)]
pub struct SearchControl {
    stop: AtomicBool,
    pondering: AtomicBool,
    clock_start: Mutex<Instant>,
}

impl Default for SearchControl {
    fn default() -> Self {
        SearchControl::new()
    }
}

impl SearchControl {
    /// A control for a search that has not started.
    pub fn new() -> SearchControl {
        SearchControl {
            stop: AtomicBool::new(false),
            pondering: AtomicBool::new(false),
            clock_start: Mutex::new(Instant::now()),
        }
    }

    /// Arms the control for a new search; the clock starts now (or at `ponderhit` when pondering).
    pub fn start(&self, pondering: bool) {
        self.stop.store(false, Ordering::SeqCst);
        self.pondering.store(pondering, Ordering::SeqCst);
        *self.clock_start.lock().unwrap_or_else(|e| e.into_inner()) = Instant::now();
    }

    /// Asks the search to finish as soon as it can.
    pub fn request_stop(&self) {
        self.stop.store(true, Ordering::SeqCst);
    }

    /// Whether `request_stop` was called.
    #[inline]
    pub fn stop_requested(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }

    /// The opponent played the expected move: the clock starts now.
    pub fn ponderhit(&self) {
        *self.clock_start.lock().unwrap_or_else(|e| e.into_inner()) = Instant::now();
        self.pondering.store(false, Ordering::SeqCst);
    }

    /// Whether the search is still pondering (its clock not running).
    #[inline]
    pub fn is_pondering(&self) -> bool {
        self.pondering.load(Ordering::Relaxed)
    }

    /// Milliseconds on the clock since the search (or ponderhit) started.
    pub fn elapsed_ms(&self) -> u64 {
        self.clock_start.lock().unwrap_or_else(|e| e.into_inner()).elapsed().as_millis() as u64
    }
}
