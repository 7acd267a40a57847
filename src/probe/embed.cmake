# cmake -DIN=file -DOUT=file.c -DNAME=sym -P embed.cmake
# Writes IN as `const unsigned char NAME[]` plus `NAME_len` (bytes).
file(READ ${IN} hex HEX)
string(LENGTH "${hex}" n)
math(EXPR bytes "${n} / 2")
string(REGEX REPLACE "([0-9a-f][0-9a-f])" "0x\\1," body "${hex}")
file(WRITE ${OUT} "/* generated from ${IN} by embed.cmake */\n"
  "const unsigned char ${NAME}[] = {${body}};\n"
  "const unsigned long ${NAME}_len = ${bytes};\n")
