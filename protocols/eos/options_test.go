package eos_test

import (
	"strings"
	"testing"

	"github.com/gameserver-exporter/gameserver_exporter/config"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
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
	c, err := config.Parse([]byte(good))
	prototest.NoError(t, err)
	for _, m := range []string{"isle", "mine", "eos", "squad"} {
		if c.Modules[m] == nil || c.Modules[m].Querier() == nil {
			t.Errorf("module %s not built", m)
		}
	}
	prototest.Refused(t, func(b []byte) error { _, err := config.Parse(b); return err },
		map[string]string{strings.Replace(good, "address_attribute", "addr_attribute", 1): "addr_attribute"})
}
