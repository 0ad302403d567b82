// Package live is what makes a served catalog change over time: skill
// libraries served straight from folders, archives and URLs and rebuilt when
// they change (Live, with a recursive file watch and periodic rescans), and
// releases followed at a reference that moves (Follower, for an OCI tag).
//
// Invariants: a catalog changes only through serve.Server.Swap, so a
// request in flight finishes on the catalog it started with and subscribed
// clients are told of the change; a failed rebuild or a refused release
// never empties or replaces what is served (the last good one stays); the
// rescans a client can ask for (catalog_status refresh=true) pass through
// one Gate, shared and spaced. Package serve never imports live: live
// builds a serve.Server and hands it values (Options.Refresh,
// Options.LiveStatus).
package live
