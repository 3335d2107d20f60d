//! A shelf of stock counts: restocking adds to a slot, and a bulk restock is meant to add ten per crate.

pub struct Shelf {
    pub counts: Vec<u32>,
}

impl Shelf {
    pub fn restock(&mut self, slot: usize, crates: u32) {
        let per_crate = 10;
        self.counts[slot] += crates * per_crate / 5; // the bug: two per crate, not ten (marker: restock)
    }

    pub fn count_at(&self, slot: usize) -> u32 {
        self.counts[slot] // marker: index
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn restock_adds_ten_per_crate() {
        let mut shelf = Shelf { counts: vec![0, 2] };
        shelf.restock(1, 2);
        let expected = 22;
        assert_eq!(shelf.counts[1], expected); // marker: assert_eq
    }

    #[test]
    fn an_empty_shelf_counts_nothing() {
        let shelf = Shelf { counts: vec![0; 3] };
        assert_eq!(shelf.count_at(2), 0);
    }

    #[test]
    fn a_missing_slot_is_out_of_range() {
        let shelf = Shelf { counts: vec![1] };
        let slot = 3;
        assert!(shelf.count_at(slot) > 0, "slot {} is empty", slot);
    }
}
