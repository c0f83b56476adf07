//! UCCI and UCI front ends over one engine core.
