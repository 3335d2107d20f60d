# An order book with a bug: the discount is taken off every line, not once per order.
Line = Struct.new(:name, :price, :quantity)

class Order
  attr_reader :lines, :discount

  def initialize(discount)
    @lines = []
    @discount = discount
  end

  def add(name, price, quantity)
    @lines << Line.new(name, price, quantity)
    self
  end

  def total
    sum = 0
    @lines.each do |line|
      cost = line.price * line.quantity
      sum += cost - discount # marker: discount
    end
    sum # marker: total
  end
end

def check(order)
  raise ArgumentError, "negative total #{order.total}" if order.total.negative? # marker: raise
  order.total
end

order = Order.new(5).add("tea", 3, 2).add("cake", 4, 1)
puts "lines #{order.lines.size}"
counts = { "tea" => 2, "cake" => 1 }
puts "total #{check(order)}" # marker: report
warn "checked #{counts.size} kinds"
small = Order.new(20).add("mint", 1, 1)
puts "small #{check(small)}"
