enum SimulationPlaceholder {}
