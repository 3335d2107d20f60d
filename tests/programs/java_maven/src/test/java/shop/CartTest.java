package shop;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class CartTest {
    @Test
    void skusAreTrimmedAndUpperCased() {
        Cart cart = new Cart();
        cart.add(" pen ", 1, 150);
        assertEquals(0, cart.quantityOf("MUG")); // catches NoSuchElementException inside: no stop
        assertEquals(1, cart.quantityOf("PEN"));
    }

    @Test
    void bulkLinesGetTenPercentOff() {
        Cart cart = new Cart();
        cart.add("pen", 12, 150);
        int total = cart.totalCents();
        assertEquals(1620, total, "12 pens at 1.50 less 10%"); // marker: assert
    }
}
