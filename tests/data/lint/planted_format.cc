// Planted format violation for the lint_format_fixture test: the body below is not
// clang-formatted (two statements on one line, no spaces around the operator).
int PlantedFormat(int a){int b=a+1;return b;}
