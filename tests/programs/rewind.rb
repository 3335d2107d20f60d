# A loop whose earlier turn wrote a bad value: stepped back through under rdbg's recorder (tests/e2e/test_reverse.py).
def fill(n)
  slots = []
  n.times do |i|
    value = i * 10 # marker: fill
    value = -1 if i == 3 # marker: bad write
    slots << value
  end
  slots
end

total = 0 # marker: start
slots = fill(6)
total = slots.sum # marker: sum
puts "total=#{total}" # marker: print
