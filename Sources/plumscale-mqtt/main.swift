print("plumscale-mqtt")
