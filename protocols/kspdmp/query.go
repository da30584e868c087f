package kspdmp

import "github.com/gameserver-exporter/gameserver_exporter/protocols"

// maxBody caps the reply: a status object with its names is well under this.
const maxBody = 256 << 10

// newQuerier returns a Querier for the module's settings (there are no options):
// it reads the status page once.
var newQuerier = protocols.JSONPage("/", maxBody, decode, (*status).result)
