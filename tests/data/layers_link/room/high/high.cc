int LayersFixtureLow();
int LayersFixtureHigh() { return LayersFixtureLow() + 1; }
