package shop;

public class App {
    public static void main(String[] args) {
        Cart cart = new Cart();
        cart.add(" pen ", 12, 150);
        cart.add("book", 1, 1200);
        int total = cart.totalCents(); // marker: total
        System.out.println("total " + total + " cents, pens " + cart.quantityOf("PEN") + ", mugs " + cart.quantityOf("MUG"));
    }
}
