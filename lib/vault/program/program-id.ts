// The vault program's address, from its IDL: the one place it is read. Free of the codecs and of
// web3.js, so the pages' server configuration (and the request proxy) can name it cheaply;
// lib/vault/program/idl.ts makes the PublicKey from it.
import idlJson from "../../../programs/vault/idl.json";

export const VAULT_PROGRAM_ADDRESS: string = idlJson.address;
