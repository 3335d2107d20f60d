import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** An order's total and its discount; `fail` as the first argument ships an order that still owes money. */
public class Orders {
    enum Status { NEW, PAID, SHIPPED }

    record Item(String name, int quantity, double price) {
        double cost() {
            return quantity * price;
        }
    }

    static final class Order {
        final String customer;
        final List<Item> items = new ArrayList<>();
        Status status = Status.NEW;
        double total;

        Order(String customer) {
            this.customer = customer;
        }
    }

    static double total(Order order) {
        double sum = 0;
        for (Item item : order.items) {
            sum += item.cost(); // marker: loop
        }
        order.total = sum;
        return sum;
    }

    static double discount(Order order, Map<String, Integer> percent) {
        Integer off = percent.get(order.customer); // marker: discount
        return off == null ? 0 : order.total * off / 100;
    }

    static void ship(Order order) {
        if (order.total > 10) {
            throw new IllegalStateException("order of " + order.customer + " still owes " + order.total); // marker: throw
        }
        order.status = Status.SHIPPED;
    }

    public static void main(String[] args) {
        Order order = new Order("ada");
        order.items.add(new Item("pen", 3, 1.5));
        order.items.add(new Item("book", 1, 12.0));
        Map<String, Integer> percent = new HashMap<>();
        percent.put("ada", 10);
        String note = "rush";
        Integer count = order.items.size();
        int parsed;
        try {
            parsed = Integer.parseInt(note); // caught below: no stop here
        } catch (NumberFormatException e) {
            parsed = -1;
        }
        double sum = total(order);
        double off = discount(order, percent);
        System.out.println("total " + sum + " off " + off + " items " + count + " parsed " + parsed); // marker: print
        if (args.length > 0 && args[0].equals("fail")) {
            ship(order);
        }
        System.out.println("done " + note);
    }
}
