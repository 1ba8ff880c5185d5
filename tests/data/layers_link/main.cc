int LayersFixtureHigh();
int main() { return LayersFixtureHigh() == 2 ? 0 : 1; }
