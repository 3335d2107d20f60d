//! Prints the newest of a few release tags that `^1.2` accepts.

fn main() {
    let wanted = semver::VersionReq::parse("^1.2").unwrap();
    let tags = ["v1.2.0", "v1.4.1", "v2.0.0"];
    match releases::newest(&wanted, &tags) {
        Some(version) => println!("newest: {version}"), // marker: found
        None => println!("no release matches {wanted}"),
    }
}
