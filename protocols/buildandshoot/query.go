package buildandshoot

import "github.com/gameserver-exporter/gameserver_exporter/protocols"

// maxBody caps the reply: 32 players and the script list fit in a few KiB.
const maxBody = 256 << 10

// newQuerier returns a Querier for the module's settings (there are no options):
// it reads /json once.
var newQuerier = protocols.JSONPage("/json", maxBody, decode, (*status).result)
