package eos_test

import (
	"strings"
	"testing"

	"github.com/gameserver-exporter/gameserver_exporter/config/configtest"
)

// The options block as a modules file gives it: decoded strictly, the secret
// accepted inline.
func TestOptionsYAML(t *testing.T) {
	good := `modules:
  isle:
    protocol: eos
    eos:
      preset: theisle
  mine:
    protocol: eos
    eos:
      api_base: https://eos.example.org
      client_id: abc
      client_secret: hunter2
      deployment_id: def
      auth: deviceid
      address_attribute: IP_s
      name_attribute: NAME_s
      version_attributes: [V_s]
`
	configtest.Modules(t, good, "isle", "mine", "eos", "squad")
	configtest.Refused(t, map[string]string{strings.Replace(good, "address_attribute", "addr_attribute", 1): "addr_attribute"})
}
