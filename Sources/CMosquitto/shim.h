// libmosquitto (Debian's libmosquitto-dev, 2.0 on Debian 12): the MQTT client library that
// PlumMQTT wraps. Imported only with `internal import`; no mosquitto type leaves PlumMQTT.
#include <mosquitto.h>
