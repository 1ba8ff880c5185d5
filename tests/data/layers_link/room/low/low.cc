int LayersFixtureLow() { return 1; }
