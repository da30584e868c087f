package discord_test

import (
	"strings"
	"testing"

	"github.com/gameserver-exporter/gameserver_exporter/config/configtest"
)

// The options block as a modules file gives it: decoded strictly, the guild id
// a quoted string; no credential, so no targets: list is needed.
func TestOptionsYAML(t *testing.T) {
	good := `modules:
  community:
    protocol: discord
    players: true
    discord:
      guild_id: "290926798626357999"
`
	configtest.Modules(t, good, "community", "discord")
	// Unquoted, YAML reads a number: the id must still arrive digit for digit.
	configtest.Modules(t, strings.Replace(good, `"290926798626357999"`, `290926798626357999`, 1), "community")
	configtest.Refused(t, map[string]string{
		strings.Replace(good, "guild_id", "guild", 1):                            "guild",
		strings.Replace(good, `"290926798626357999"`, `"29092679862635799x"`, 1): "numeric id",
	})
}

// Two guilds probed with one target (discord.com) are two queries: the
// exporter coalesces and caches by the module's query key, which holds the
// guild id.
func TestGuildsAreDistinctQueries(t *testing.T) {
	c := configtest.Modules(t, `modules:
  a:
    protocol: discord
    discord: {guild_id: "290926798626357999"}
  b:
    protocol: discord
    discord: {guild_id: "290926798626357998"}
  a2:
    protocol: discord
    discord: {guild_id: "290926798626357999"}
`, "a", "b", "a2")
	a, b, a2 := c.Modules["a"].QueryKey(), c.Modules["b"].QueryKey(), c.Modules["a2"].QueryKey()
	if a == b || a != a2 {
		t.Errorf("query keys a %s, b %s, a2 %s", a, b, a2)
	}
}
