// FreeType loaded on first use (dlopen), as CLibcrypto loads libcrypto: an extension that never
// draws text maps none of it. The prototypes come from FreeType's own headers; each function is
// called through a pointer resolved once. One FT_Library and one face per font file, behind a
// mutex: FreeType objects are not thread-safe.
#include "cfreetype_loader.h"

#include <ft2build.h>
#include FT_FREETYPE_H

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

static pthread_mutex_t wh_text_lock = PTHREAD_MUTEX_INITIALIZER;
static int wh_text_loaded = 0;
static char wh_text_error[256];
static FT_Library wh_library;

static FT_Error (*wh_FT_Init_FreeType)(FT_Library *);
static FT_Error (*wh_FT_New_Face)(FT_Library, const char *, FT_Long, FT_Face *);
static FT_Error (*wh_FT_Set_Pixel_Sizes)(FT_Face, FT_UInt, FT_UInt);
static FT_Error (*wh_FT_Load_Char)(FT_Face, FT_ULong, FT_Int32);

/// Faces by path; card art uses a regular and a bold face.
#define WH_MAX_FACES 8
static struct { char path[512]; FT_Face face; } wh_faces[WH_MAX_FACES];
static int wh_face_count = 0;

static int wh_text_load(void) {
    if (wh_text_loaded) return wh_text_loaded > 0;
    wh_text_loaded = -1;
    void *library = dlopen("libfreetype.so.6", RTLD_NOW | RTLD_LOCAL);
    if (!library) {
        snprintf(wh_text_error, sizeof wh_text_error, "libfreetype.so.6 could not be loaded: %s", dlerror());
        return 0;
    }
    *(void **)&wh_FT_Init_FreeType = dlsym(library, "FT_Init_FreeType");
    *(void **)&wh_FT_New_Face = dlsym(library, "FT_New_Face");
    *(void **)&wh_FT_Set_Pixel_Sizes = dlsym(library, "FT_Set_Pixel_Sizes");
    *(void **)&wh_FT_Load_Char = dlsym(library, "FT_Load_Char");
    if (!wh_FT_Init_FreeType || !wh_FT_New_Face || !wh_FT_Set_Pixel_Sizes || !wh_FT_Load_Char) {
        snprintf(wh_text_error, sizeof wh_text_error, "libfreetype.so.6 lacks a FreeType function");
        return 0;
    }
    if (wh_FT_Init_FreeType(&wh_library) != 0) {
        snprintf(wh_text_error, sizeof wh_text_error, "FT_Init_FreeType failed");
        return 0;
    }
    wh_text_loaded = 1;
    return 1;
}

static FT_Face wh_face(const char *path) {
    for (int index = 0; index < wh_face_count; index++) {
        if (strcmp(wh_faces[index].path, path) == 0) return wh_faces[index].face;
    }
    FT_Face face;
    if (wh_FT_New_Face(wh_library, path, 0, &face) != 0) {
        snprintf(wh_text_error, sizeof wh_text_error, "the font %s could not be read", path);
        return NULL;
    }
    if (wh_face_count < WH_MAX_FACES) {
        snprintf(wh_faces[wh_face_count].path, sizeof wh_faces[wh_face_count].path, "%s", path);
        wh_faces[wh_face_count++].face = face;
    }
    return face;
}

/// The next code point of `text`, advancing it; U+FFFD for a malformed sequence.
static unsigned long wh_next_code_point(const unsigned char **text) {
    const unsigned char *s = *text;
    unsigned long code = 0xFFFD;
    int extra = 0;
    if (s[0] < 0x80) { code = s[0]; }
    else if ((s[0] & 0xE0) == 0xC0) { code = s[0] & 0x1F; extra = 1; }
    else if ((s[0] & 0xF0) == 0xE0) { code = s[0] & 0x0F; extra = 2; }
    else if ((s[0] & 0xF8) == 0xF0) { code = s[0] & 0x07; extra = 3; }
    s++;
    for (int index = 0; index < extra; index++, s++) {
        if ((*s & 0xC0) != 0x80) { *text = s; return 0xFFFD; }
        code = (code << 6) | (*s & 0x3F);
    }
    *text = s;
    return code;
}

double wh_text_render(const char *utf8, const char *font_path, double pixel_size,
                      unsigned char *coverage, int width, int height, double pen_x, double baseline_y) {
    pthread_mutex_lock(&wh_text_lock);
    double advance = -1;
    FT_Face face = wh_text_load() ? wh_face(font_path) : NULL;
    if (face && wh_FT_Set_Pixel_Sizes(face, 0, (FT_UInt)(pixel_size + 0.5)) == 0) {
        advance = 0;
        const unsigned char *text = (const unsigned char *)utf8;
        while (*text) {
            unsigned long code = wh_next_code_point(&text);
            if (wh_FT_Load_Char(face, code, coverage ? FT_LOAD_RENDER : FT_LOAD_DEFAULT) != 0) continue;
            FT_GlyphSlot glyph = face->glyph;
            if (coverage) {
                int left = (int)(pen_x + advance + 0.5) + glyph->bitmap_left;
                int top = (int)(baseline_y + 0.5) - glyph->bitmap_top;
                for (unsigned int row = 0; row < glyph->bitmap.rows; row++) {
                    int y = top + (int)row;
                    if (y < 0 || y >= height) continue;
                    for (unsigned int column = 0; column < glyph->bitmap.width; column++) {
                        int x = left + (int)column;
                        if (x < 0 || x >= width) continue;
                        unsigned int sum = coverage[y * width + x] + glyph->bitmap.buffer[row * glyph->bitmap.pitch + column];
                        coverage[y * width + x] = sum > 255 ? 255 : (unsigned char)sum;
                    }
                }
            }
            advance += glyph->advance.x / 64.0;
        }
    }
    pthread_mutex_unlock(&wh_text_lock);
    return advance;
}

const char *wh_text_load_error(void) {
    return wh_text_error[0] ? wh_text_error : NULL;
}
