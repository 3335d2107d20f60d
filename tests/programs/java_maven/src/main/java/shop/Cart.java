package shop;

import java.util.ArrayList;
import java.util.List;
import org.apache.commons.lang3.StringUtils;

/** A cart of lines; bulk lines (10 or more) get 10% off, but the discount is taken from the wrong price. */
public class Cart {
    public record Line(String sku, int quantity, int unitCents) {
    }

    private final List<Line> lines = new ArrayList<>();

    public void add(String sku, int quantity, int unitCents) {
        lines.add(new Line(StringUtils.upperCase(StringUtils.trim(sku)), quantity, unitCents));
    }

    public int totalCents() {
        int total = 0;
        for (Line line : lines) {
            int cost = line.quantity() * line.unitCents();
            if (line.quantity() >= 10) {
                cost -= line.unitCents() / 10; // marker: discount
            }
            total += cost;
        }
        return total;
    }

    public int quantityOf(String sku) {
        try {
            return lines.stream().filter(l -> l.sku().equals(sku)).findFirst().orElseThrow().quantity();
        } catch (java.util.NoSuchElementException absent) {
            return 0; // an exception the code catches: no stop
        }
    }

    public List<Line> lines() {
        return lines;
    }
}
