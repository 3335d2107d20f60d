//! Picks the newest release a version requirement accepts, from a project's release tags.

use semver::{Version, VersionReq};

/// The newest of `tags` (`v1.4.1`) that `wanted` accepts; a tag that is no version (`nightly`) is meant to be
/// skipped.
pub fn newest(wanted: &VersionReq, tags: &[&str]) -> Option<Version> {
    let mut best: Option<Version> = None;
    for tag in tags {
        let version = Version::parse(tag.trim_start_matches('v')).ok()?; // the bug: gives up at the first such tag
        if wanted.matches(&version) && best.as_ref().map_or(true, |newest| version > *newest) {
            best = Some(version); // marker: best
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn skips_tags_that_are_no_version() {
        let wanted = VersionReq::parse("^1.2").unwrap();
        let found = newest(&wanted, &["v1.2.0", "nightly", "v1.4.1", "v2.0.0"]);
        assert_eq!(found, Some(Version::new(1, 4, 1))); // marker: assert_eq
    }

    #[test]
    fn takes_the_newest_that_matches() {
        let wanted = VersionReq::parse(">=1.0, <2").unwrap();
        assert_eq!(newest(&wanted, &["1.0.0", "1.9.3", "2.1.0"]), Some(Version::new(1, 9, 3)));
    }
}
