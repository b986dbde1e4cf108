set sysroot /nonexistent
set solib-search-path /usr/aarch64-linux-gnu/lib
file /tmp/hd/t
target remote :1237
continue
bt 8
set $i = 0
while $i < 60
  stepi
  x/i $pc
  set $i = $i + 1
end
info registers
