package scpsl_test

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/gameserver-exporter/gameserver_exporter/config/configtest"
	"github.com/gameserver-exporter/gameserver_exporter/protocols/prototest"
)

// The options block as a modules file gives it: the key from a file, no
// targets: list needed (the key goes to Northwood only), an inline key
// redacted from what /config shows.
func TestOptionsYAML(t *testing.T) {
	keyFile := filepath.Join(t.TempDir(), "scpsl.key")
	prototest.WriteFile(t, keyFile, "k3yS3cr3tVa1ue\n")
	good := `modules:
  mylab:
    protocol: scpsl
    players: true
    scpsl:
      account_id: "20100"
      api_key_file: ` + keyFile + `
      server_id: 20101
`
	configtest.Modules(t, good, "mylab", "scpsl")
	configtest.Refused(t, map[string]string{
		strings.Replace(good, "account_id", "account", 1):     "account",
		strings.Replace(good, `"20100"`, `"20100x"`, 1):       "numeric id",
		strings.Replace(good, keyFile, keyFile+".missing", 1): "api_key",
	})
}
