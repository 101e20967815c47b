print("plumscale-mqtt: not wired yet")
