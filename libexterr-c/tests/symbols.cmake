# SPDX-License-Identifier: MIT
# cmake -DMAP= -DHEADER= -DLIB= -DNM= -P symbols.cmake
#
# Fails unless libexterr.map, the functions declared in exterr.h and the
# dynamic symbols that libexterr.so.1 defines are the same set, and every
# one of them carries the EXTERR_1.0 version.

file(READ ${MAP} map)
cmake_policy(SET CMP0007 NEW)
# "exterr_x;" lines; the trailing ';' is also CMake's list separator.
string(REGEX MATCHALL "exterr_[a-z0-9_]+" map_syms "${map}")
list(SORT map_syms)

# Declarations start a line with their type; comments start with / or *.
file(STRINGS ${HEADER} decls REGEX "^[a-z].*[ *]exterr_[a-z0-9_]+\\(")
set(hdr_syms "")
foreach(line IN LISTS decls)
	string(REGEX MATCH "[ *](exterr_[a-z0-9_]+)\\(" _ "${line}")
	list(APPEND hdr_syms "${CMAKE_MATCH_1}")
endforeach()
list(SORT hdr_syms)

execute_process(COMMAND ${NM} -D --defined-only ${LIB}
		OUTPUT_VARIABLE nm_out RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
	message(FATAL_ERROR "nm -D ${LIB} failed")
endif()
string(REPLACE "\n" ";" nm_lines "${nm_out}")
set(lib_syms "")
foreach(line IN LISTS nm_lines)
	if(line MATCHES "^[0-9a-f]* +[A-Za-z] +(.+)$")
		set(sym "${CMAKE_MATCH_1}")
		if(sym STREQUAL "EXTERR_1.0")
			continue()	# the version node itself
		endif()
		if(NOT sym MATCHES "@@EXTERR_1\\.0$")
			message(SEND_ERROR "unversioned or foreign export: ${sym}")
		endif()
		string(REGEX REPLACE "@.*" "" sym "${sym}")
		list(APPEND lib_syms "${sym}")
	endif()
endforeach()
list(SORT lib_syms)

message(STATUS "map:    ${map_syms}")
message(STATUS "header: ${hdr_syms}")
message(STATUS "nm -D:  ${lib_syms}")
list(LENGTH map_syms n)
if(n EQUAL 0)
	message(FATAL_ERROR "no symbols found in ${MAP}")
endif()
if(NOT map_syms STREQUAL hdr_syms)
	message(FATAL_ERROR "libexterr.map and exterr.h disagree")
endif()
if(NOT map_syms STREQUAL lib_syms)
	message(FATAL_ERROR "libexterr.map and nm -D ${LIB} disagree")
endif()
message(STATUS "symbols: ${n} agree")
