macro_rules! hax_debug_assert {
    ($($arg:tt)*) => {};
}

pub(crate) use hax_debug_assert;
