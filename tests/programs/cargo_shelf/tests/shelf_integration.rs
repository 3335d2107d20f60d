use shelf::Shelf;

#[test]
fn integration_count_at_reads_a_slot() {
    let shelf = Shelf { counts: vec![4, 5] };
    assert_eq!(shelf.count_at(1), 5);
    // run in the package's directory, as `cargo test` runs it
    let manifest = std::fs::read_to_string("Cargo.toml").expect("Cargo.toml in the working directory");
    assert!(manifest.contains("name = \"shelf\""));
}
