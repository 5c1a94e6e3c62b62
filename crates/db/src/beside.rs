//! What a query's last run on each file leaves for the next to start from,
//! kept beside the database and shared by its clones ([`FileStates`]): a
//! cache, never a second source of truth: the query's result is the same
//! whatever it holds. A run takes its file's state out while it updates
//! it, so a run cancelled half-way leaves none, and the next starts afresh.

use std::sync::Mutex;

use rustc_hash::FxHashMap;

use crate::SourceFile;

pub struct FileStates<T>(Mutex<FxHashMap<SourceFile, T>>);

impl<T> Default for FileStates<T> {
    fn default() -> Self {
        FileStates(Mutex::default())
    }
}

impl<T> FileStates<T> {
    pub(crate) fn take(&self, file: SourceFile) -> Option<T> {
        self.0
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .remove(&file)
    }

    pub(crate) fn put(&self, file: SourceFile, state: T) {
        self.0
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .insert(file, state);
    }

    /// Changes the state of `file`, if there is one, in place: a run that
    /// would take it meanwhile waits for it rather than starting afresh.
    pub(crate) fn update(&self, file: SourceFile, f: impl FnOnce(&mut T)) {
        if let Some(state) = self
            .0
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .get_mut(&file)
        {
            f(state);
        }
    }

    /// `f` of the state of `file`, if there is one.
    pub(crate) fn read<R>(&self, file: SourceFile, f: impl FnOnce(&T) -> R) -> Option<R> {
        self.0
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .get(&file)
            .map(f)
    }
}
