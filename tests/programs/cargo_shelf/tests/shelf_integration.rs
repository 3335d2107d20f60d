use shelf::Shelf;

#[test]
fn integration_count_at_reads_a_slot() {
    let shelf = Shelf { counts: vec![4, 5] };
    assert_eq!(shelf.count_at(1), 5);
}
