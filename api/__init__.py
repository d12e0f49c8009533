"""The versioned HTTP interface: thin routers, authentication and the error format."""
