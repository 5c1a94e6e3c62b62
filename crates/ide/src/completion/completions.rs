//! One producer per kind of item, each given the [`super::context`] of the
//! cursor; the dispatch on the site is `super::collect`.

pub(super) mod attribute_keys;
pub(super) mod capabilities;
pub(super) mod constants;
pub(super) mod enum_values;
pub(super) mod files;
pub(super) mod keywords;
pub(super) mod members;
pub(super) mod packages;
pub(super) mod params;
pub(super) mod snippets;
pub(super) mod steps;
