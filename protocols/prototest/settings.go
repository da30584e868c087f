package prototest

import "github.com/gameserver-exporter/gameserver_exporter/protocols"

// Settings is a module's settings with players on or off and the protocol's
// options block yml, decoded strictly (OptionsYAML); no block when yml is "".
func Settings(players bool, yml string) protocols.Settings {
	s := protocols.Settings{Players: players}
	if yml != "" {
		s.Options = OptionsYAML(yml)
	}
	return s
}
