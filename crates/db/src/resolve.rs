//! Layer 5a: what every name in the file refers to (`language.md` §3.1).

use rustc_hash::FxHashMap;
use smol_str::SmolStr;

use crate::items::{StepId, item_index};
use crate::{Db, SourceFile};

/// What a reference's first segment names.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Target {
    Step(StepId),
    /// A required file, by the index of its first `require` entry.
    File(u32),
    Unresolved,
}

#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Resolution {
    /// Each step name's first definition. (Fx: names are the file's own, and
    /// hashing every name of a large file with SipHash shows in a check.)
    pub steps_by_name: FxHashMap<SmolStr, StepId>,
    /// Per step: it is the first definition of its name (it has one).
    pub first_definition: Vec<bool>,
    /// Each required name's first entry.
    pub files_by_name: FxHashMap<String, u32>,
    /// Per step, per reference of its summary.
    pub references: Vec<Vec<Target>>,
    /// Per step, per `after`/`on` entry: the step it names.
    pub dependencies: Vec<Vec<Option<StepId>>>,
    /// Per `require` entry: how many references resolve to it.
    pub file_uses: Vec<u32>,
}

impl Resolution {
    pub fn resolve(&self, name: &str) -> Target {
        if let Some(&step) = self.steps_by_name.get(name) {
            Target::Step(step)
        } else if let Some(&file) = self.files_by_name.get(name) {
            Target::File(file)
        } else {
            Target::Unresolved
        }
    }
}

#[salsa::tracked(returns(ref))]
pub fn name_resolution(db: &dyn Db, file: SourceFile) -> Resolution {
    let index = item_index(db, file);
    let mut resolution = Resolution::default();
    for (i, step) in index.steps.iter().enumerate() {
        let mut first = false;
        if let Some(name) = &step.name {
            resolution
                .steps_by_name
                .entry(name.clone())
                .or_insert_with(|| {
                    first = true;
                    StepId(i as u32)
                });
        }
        resolution.first_definition.push(first);
    }
    for (i, name) in index.requires.iter().enumerate() {
        resolution
            .files_by_name
            .entry(name.clone())
            .or_insert(i as u32);
    }
    resolution.file_uses = vec![0; index.requires.len()];
    for step in &index.steps {
        let targets: Vec<Target> = step
            .references
            .iter()
            .map(|r| resolution.resolve(&r.head))
            .collect();
        for target in &targets {
            if let Target::File(file) = target {
                resolution.file_uses[*file as usize] += 1;
            }
        }
        resolution.references.push(targets);
        let dependencies = step
            .dependencies
            .iter()
            .map(|d| resolution.steps_by_name.get(&d.name).copied())
            .collect();
        resolution.dependencies.push(dependencies);
    }
    resolution
}
