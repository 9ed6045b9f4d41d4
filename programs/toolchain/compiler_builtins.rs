#![feature(compiler_builtins)]
#![compiler_builtins]
#![no_std]
